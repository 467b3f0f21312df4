import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { Appointment } from '@loopdesk/contracts/scheduling.ts';
import { useId, useState } from 'react';
import { AppointmentForm } from '../../../components/appointment/appointment-form.tsx';

export interface AppointmentDialogProps {
  open: boolean;
  conversationId: string;
  patientName: string;
  onClose: () => void;
  /** The appointment is stored: the screen ends the conversation with END. */
  onScheduled: (appointment: Appointment) => void;
  disablePortal?: boolean;
}

/** 'End and schedule appointment' (spec 2 §2): the appointment form, then the end with END. */
export function AppointmentDialog({
  open,
  conversationId,
  patientName,
  onClose,
  onScheduled,
  disablePortal = false,
}: AppointmentDialogProps) {
  const titleId = useId();
  const formId = useId();
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      disablePortal={disablePortal}
      fullWidth
      maxWidth="sm"
    >
      <DialogTitle id={titleId}>Schedule an appointment for {patientName}</DialogTitle>
      <DialogContent>
        <AppointmentForm
          id={formId}
          conversationId={conversationId}
          enabled={open}
          onScheduled={onScheduled}
          onBusyChange={setBusy}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" form={formId} variant="contained" disabled={busy}>
          Schedule and end
        </Button>
      </DialogActions>
    </Dialog>
  );
}
