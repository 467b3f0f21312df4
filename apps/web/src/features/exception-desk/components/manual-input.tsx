import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { EXCEPTION_TEXTS } from '@loopdesk/contracts/exceptions.ts';
import { useState } from 'react';

/** Multi-line inputs hold at most 8 rows (spec 2 §5, §9). */
const MAX_ROWS = 8;

export interface ManualInputProps {
  disabled: boolean;
  /** While disabled: why, shown under the field (e.g. 'Paused: press Resume to reply.'). */
  disabledReason?: string;
  /** Sends the reply; false when nothing was sent. */
  onSend: (text: string) => boolean;
  /** Focus the field when it mounts (the screen mounts it anew after each stored reply). */
  autoFocus?: boolean;
}

/**
 * 'Manual input (USE WITH CAUTION)' (spec 2 §2): a reply typed by the reviewer, sent by Enter
 * (Shift+Enter for a new line) or the button, and only when it is not empty (spec 2 §5).
 */
export function ManualInput({
  disabled,
  disabledReason,
  onSend,
  autoFocus = false,
}: ManualInputProps) {
  const [text, setText] = useState('');
  const empty = text.trim().length === 0;
  const send = () => {
    if (!empty) {
      onSend(text);
    }
  };
  return (
    <Stack direction="row" sx={{ gap: 1, alignItems: 'flex-start' }}>
      <TextField
        label={EXCEPTION_TEXTS.manualInput}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            send();
          }
        }}
        disabled={disabled}
        {...(disabled && disabledReason ? { helperText: disabledReason } : {})}
        size="small"
        sx={disabled ? { bgcolor: 'action.disabledBackground', borderRadius: 1 } : undefined}
        autoFocus={autoFocus}
        multiline
        maxRows={MAX_ROWS}
        fullWidth
      />
      <Button variant="contained" onClick={send} disabled={disabled || empty} sx={{ mt: '2px' }}>
        Send
      </Button>
    </Stack>
  );
}
