import Button from '@mui/material/Button';
import { useState } from 'react';
import { ConfirmDialog } from '../confirm-dialog.tsx';

export interface ExceptionButtonProps {
  /** Called once the technician confirms. */
  readonly onRaise: () => void;
  readonly message?: string;
  readonly disabled?: boolean;
}

/** 'Exception' with its confirmation (it ends the job), for the panels other than the generic one. */
export function ExceptionButton({
  onRaise,
  message = 'The job goes to the exception desk.',
  disabled = false,
}: ExceptionButtonProps) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button
        variant="outlined"
        color="warning"
        disabled={disabled}
        onClick={() => setConfirming(true)}
      >
        Exception
      </Button>
      <ConfirmDialog
        open={confirming}
        title="Raise an exception?"
        message={message}
        confirmLabel="Raise exception"
        disablePortal
        onConfirm={() => {
          setConfirming(false);
          onRaise();
        }}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
