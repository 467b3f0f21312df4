import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { Conflict } from '../model/conflict.ts';

/** One button of a save bar. */
export interface SaveAction {
  label: string;
  onClick: () => void;
  /** The main action is filled; the others are outlined. */
  primary?: boolean;
}

/** The buttons that save a screen's work, all disabled while a save is on its way. */
export function SaveBar({ actions, busy }: { actions: readonly SaveAction[]; busy: boolean }) {
  return (
    <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
      {actions.map((action) => (
        <Button
          key={action.label}
          variant={action.primary ? 'contained' : 'outlined'}
          disabled={busy}
          onClick={action.onClick}
        >
          {action.label}
        </Button>
      ))}
    </Stack>
  );
}

/**
 * A refused save: what happened, and that the work (`what`: 'annotations', 'decisions') is still
 * on the screen. With `onKeepMine`, offers to save over the newer version.
 */
export function ConflictAlert({
  conflict,
  what,
  onKeepMine,
}: {
  conflict: Conflict;
  what: string;
  onKeepMine?: (version: number) => void;
}) {
  const { version } = conflict;
  const keep = version !== null && onKeepMine ? () => onKeepMine(version) : null;
  return (
    <Alert
      severity="error"
      role="alert"
      action={
        keep ? (
          <Button color="inherit" size="small" onClick={keep}>
            Keep mine
          </Button>
        ) : undefined
      }
    >
      {`${conflict.message} Your ${what} are still on this screen; nothing was saved.${
        keep ? ' Keep mine to save them over the newer version with your next save.' : ''
      }`}
    </Alert>
  );
}
