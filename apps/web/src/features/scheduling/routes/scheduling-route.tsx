import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { APPOINTMENT_TYPE_LABELS, type Appointment } from '@loopdesk/contracts/scheduling.ts';
import { AppointmentForm } from '../../../components/appointment/appointment-form.tsx';
import { errorMessage } from '../../../lib/http-error.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import {
  upcomingAppointmentsQueryOptions,
  useUpcomingAppointments,
} from '../api/get-upcoming-appointments.ts';

/** "2026-12-01T09:30" in its timezone, as people read it. */
function when(appointment: Appointment): string {
  return `${appointment.fromDateTime.replace('T', ' ')} (${appointment.timezone})`;
}

function UpcomingAppointments() {
  const upcoming = useUpcomingAppointments();
  if (upcoming.isPending) {
    return <CircularProgress aria-label="Loading appointments" />;
  }
  if (upcoming.isError) {
    return <Alert severity="error">{errorMessage(upcoming.error)}</Alert>;
  }
  const { items } = upcoming.data;
  return (
    <Table size="small" aria-label="Upcoming appointments">
      <TableHead>
        <TableRow>
          <TableCell>When</TableCell>
          <TableCell>Type</TableCell>
          <TableCell>Minutes</TableCell>
          <TableCell>Physician</TableCell>
          <TableCell>Patient</TableCell>
          <TableCell>Appointment note</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {items.map((appointment) => (
          <TableRow key={appointment.id}>
            <TableCell>{when(appointment)}</TableCell>
            <TableCell>{APPOINTMENT_TYPE_LABELS[appointment.type]}</TableCell>
            <TableCell>{appointment.duration}</TableCell>
            <TableCell>
              {appointment.staffFirstName} {appointment.staffLastName}
            </TableCell>
            <TableCell>
              {appointment.consumerEmail ?? appointment.conversationId ?? appointment.consumerId}
            </TableCell>
            <TableCell>{appointment.appointmentNote}</TableCell>
          </TableRow>
        ))}
        {items.length === 0 ? (
          <TableRow>
            <TableCell colSpan={6}>No appointments coming up.</TableCell>
          </TableRow>
        ) : null}
      </TableBody>
    </Table>
  );
}

/**
 * /scheduling (spec 3 §2 "Scheduling": "a form that creates an appointment"): the exception
 * desk's appointment form on its own, and the appointments coming up (issue 15).
 */
export function SchedulingRoute() {
  usePageTitle('Scheduling');
  const queryClient = useQueryClient();
  const formId = useId();
  const [busy, setBusy] = useState(false);
  // A new form (empty again) after each appointment scheduled.
  const [round, setRound] = useState(0);
  const onScheduled = () => {
    setRound((value) => value + 1);
    void queryClient.invalidateQueries(upcomingAppointmentsQueryOptions());
  };
  return (
    <Box
      component="section"
      aria-label="Scheduling"
      sx={{ display: 'grid', gap: 3, gridTemplateColumns: { lg: 'minmax(0, 28rem) 1fr' } }}
    >
      <Paper sx={{ p: 2 }} component="section" aria-labelledby={`${formId}-title`}>
        <Typography id={`${formId}-title`} variant="h6" component="h2" sx={{ mb: 2 }}>
          Schedule an appointment
        </Typography>
        <AppointmentForm key={round} id={formId} onScheduled={onScheduled} onBusyChange={setBusy} />
        <Button type="submit" form={formId} variant="contained" disabled={busy} sx={{ mt: 2 }}>
          Schedule
        </Button>
      </Paper>
      <Box component="section" aria-labelledby={`${formId}-upcoming`}>
        <Typography id={`${formId}-upcoming`} variant="h6" component="h2" sx={{ mb: 1 }}>
          Upcoming appointments
        </Typography>
        <UpcomingAppointments />
      </Box>
    </Box>
  );
}
