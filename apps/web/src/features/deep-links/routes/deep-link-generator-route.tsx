import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import type { DeepLink, DeepLinkPurpose } from '@loopdesk/contracts/deep-links.ts';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useAppointments, useCreateDeepLink } from '../api/create-deep-link.ts';
import { LinkResult } from '../components/link-result.tsx';

/** Expiry choices, in minutes. */
export const EXPIRIES = [
  { minutes: 15, label: '15 minutes' },
  { minutes: 60, label: '1 hour' },
  { minutes: 24 * 60, label: '24 hours' },
  { minutes: 7 * 24 * 60, label: '7 days' },
] as const;

/** /deep-link-generator (issue 15 item 7; the spec names the screen only: docs/deep-links.md). */
export function DeepLinkGeneratorRoute() {
  usePageTitle('Deep Link Generator');
  const toast = useToast();
  const appointments = useAppointments();
  const create = useCreateDeepLink();
  const [purpose, setPurpose] = useState<DeepLinkPurpose>('telehealth.appointment');
  const [appointmentId, setAppointmentId] = useState('');
  const [conversationId, setConversationId] = useState('');
  const [expires, setExpires] = useState<number>(60);
  const [link, setLink] = useState<DeepLink | null>(null);

  const forAppointment = purpose === 'telehealth.appointment';
  const ready = forAppointment ? appointmentId !== '' : conversationId.trim().length > 3;

  const generate = () => {
    create.mutate(
      {
        purpose,
        expiresInMinutes: expires,
        ...(forAppointment ? { appointmentId } : { conversationId: conversationId.trim() }),
      },
      {
        onSuccess: setLink,
        onError: (error) => toast.error(`The link could not be made - ${errorMessage(error)}`),
      },
    );
  };

  const items = appointments.data?.items ?? [];
  return (
    <Paper component="section" aria-label="Deep link generator" sx={{ p: 3, maxWidth: 760 }}>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <FormControl>
          <FormLabel id="deep-link-purpose">The link opens</FormLabel>
          <RadioGroup
            row
            aria-labelledby="deep-link-purpose"
            value={purpose}
            onChange={(event) => {
              setPurpose(event.target.value as DeepLinkPurpose);
              setLink(null);
            }}
          >
            <FormControlLabel
              value="telehealth.appointment"
              control={<Radio />}
              label="An appointment's video visit"
            />
            <FormControlLabel
              value="telehealth.conversation"
              control={<Radio />}
              label="A conversation"
            />
          </RadioGroup>
        </FormControl>
        {forAppointment ? (
          <TextField
            select
            label="Appointment"
            value={appointmentId}
            onChange={(event) => setAppointmentId(event.target.value)}
            helperText={
              appointments.isError
                ? `The appointments could not be loaded - ${errorMessage(appointments.error)}`
                : items.length === 0
                  ? 'No appointment is scheduled yet: schedule one first.'
                  : 'The patient is the appointment’s.'
            }
            error={appointments.isError}
          >
            {items.map((appointment) => (
              <MenuItem key={appointment.id} value={appointment.id}>
                {appointment.fromDateTime} ({appointment.timezone}) with{' '}
                {appointment.staffFirstName} {appointment.staffLastName} —{' '}
                {appointment.consumerEmail ?? appointment.consumerId ?? 'patient'}
              </MenuItem>
            ))}
          </TextField>
        ) : (
          <TextField
            label="Conversation id"
            value={conversationId}
            onChange={(event) => setConversationId(event.target.value)}
            helperText="The patient is the conversation’s."
          />
        )}
        <TextField
          select
          label="Expires after"
          value={expires}
          onChange={(event) => setExpires(Number(event.target.value))}
          sx={{ maxWidth: 240 }}
        >
          {EXPIRIES.map((choice) => (
            <MenuItem key={choice.minutes} value={choice.minutes}>
              {choice.label}
            </MenuItem>
          ))}
        </TextField>
        <Box>
          <Button variant="contained" onClick={generate} disabled={!ready || create.isPending}>
            Generate link
          </Button>
        </Box>
      </Box>
      {link ? <LinkResult link={link} /> : null}
    </Paper>
  );
}
