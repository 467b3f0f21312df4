import Button from '@mui/material/Button';
import { useState } from 'react';
import { DEFAULT_EXCEPTION_LABEL } from '@loopdesk/workbench/purposes.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { exceptionConfirmation } from '../utils/exception.ts';

export interface ExceptionButtonProps {
  /** Called once the technician confirms. */
  readonly onRaise: () => void;
  readonly message?: string;
  readonly disabled?: boolean;
  /** The button's text: the job's custom exception label, else 'Exception'. */
  readonly label?: string;
}

/**
 * 'Exception' (or the job's custom exception label) with its confirmation (it ends the job), for
 * the panels other than the generic one.
 */
export function ExceptionButton({
  onRaise,
  message = 'The job goes to the exception desk.',
  disabled = false,
  label = DEFAULT_EXCEPTION_LABEL,
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
        {label}
      </Button>
      <ConfirmDialog
        open={confirming}
        {...exceptionConfirmation(label, message)}
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
