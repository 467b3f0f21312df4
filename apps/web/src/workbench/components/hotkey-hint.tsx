import Box from '@mui/material/Box';

/**
 * The hotkey of an option or button, shown before its label as the hotkey menu shows its digits
 * (issue 20 "one keyboard model"). Hidden from screen readers: the control says its key with
 * `aria-keyshortcuts` and keeps its plain name.
 */
export function HotkeyHint({ hotkey }: { hotkey: string }) {
  return (
    <Box
      component="kbd"
      aria-hidden
      sx={{
        fontFamily: 'monospace',
        color: 'text.secondary',
        border: 1,
        borderColor: 'divider',
        borderRadius: 0.5,
        px: 0.5,
        mr: 1,
        fontSize: '0.8em',
        lineHeight: 1.4,
      }}
    >
      {hotkey}
    </Box>
  );
}
