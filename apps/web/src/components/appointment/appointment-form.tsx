import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  APPOINTMENT_DEFAULTS,
  APPOINTMENT_MAX_DURATION,
  APPOINTMENT_TIMEZONES,
  APPOINTMENT_TYPES,
  APPOINTMENT_TYPE_LABELS,
  SCHEDULE_ERROR_MESSAGE,
  SCHEDULE_SUCCESS_MESSAGE,
  isFutureLocalDateTime,
  isLocalDateTime,
  type Appointment,
  type AppointmentTimezone,
  type AppointmentType,
} from '@loopdesk/contracts/scheduling.ts';
import { useEffect, useState } from 'react';
import { useToast } from '../toast-context.ts';
import { HttpError, errorMessage } from '../../lib/http-error.ts';
import { usePhysicians } from './get-physicians.ts';
import { useScheduleAppointment } from './schedule-appointment.ts';

const MAX_ROWS = 8;
const REQUIRED = 'This field is required.';

export interface AppointmentFormProps {
  /** The form element's id: a submit button elsewhere (a dialog's actions) names it in `form`. */
  id: string;
  /** Filled in to start with (the exception desk's conversation); empty on the scheduling screen. */
  conversationId?: string;
  /** Load the physicians only while the form can be seen. */
  enabled?: boolean;
  /** The appointment is stored. */
  onScheduled: (appointment: Appointment) => void;
  /** Told when scheduling starts and ends, to disable the submit button meanwhile. */
  onBusyChange?: (busy: boolean) => void;
}

interface Form {
  type: AppointmentType;
  duration: string;
  timezone: AppointmentTimezone;
  fromDateTime: string;
  staffId: string;
  appointmentNote: string;
  consumerNote: string;
  consumerEmail: string;
  conversationId: string;
}

type Errors = Partial<Record<keyof Form, string>>;

/** An email address, as the server's check reads one (the part before and after one @). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The form's own checks, the same as the server's (spec 3 §5 "Appointment"). */
export function validateAppointment(form: Form, now = Date.now()): Errors {
  const errors: Errors = {};
  const duration = Number(form.duration);
  if (form.duration.trim() === '' || !Number.isInteger(duration) || duration < 1) {
    errors.duration = 'Enter a whole number of minutes.';
  } else if (duration > APPOINTMENT_MAX_DURATION) {
    errors.duration = `At most ${APPOINTMENT_MAX_DURATION} minutes.`;
  }
  // The browser's picker shows the date in its own way; the value is yyyy-MM-dd'T'HH:mm.
  if (!isLocalDateTime(form.fromDateTime)) {
    errors.fromDateTime = 'Choose the date and time of the appointment.';
  } else if (!isFutureLocalDateTime(form.fromDateTime, form.timezone, now)) {
    errors.fromDateTime = `This time has passed in ${form.timezone}: choose a later one.`;
  }
  if (!form.staffId) {
    errors.staffId = 'Choose a physician.';
  }
  if (form.appointmentNote.trim() === '') {
    errors.appointmentNote = REQUIRED;
  }
  if (form.consumerNote.trim() === '') {
    errors.consumerNote = REQUIRED;
  }
  if (form.consumerEmail.trim() === '' && form.conversationId.trim() === '') {
    errors.consumerEmail = 'Give the consumer email or the conversation id.';
  } else if (form.consumerEmail.trim() !== '' && !EMAIL.test(form.consumerEmail.trim())) {
    errors.consumerEmail = 'Enter an email address, like name@example.com.';
  }
  return errors;
}

/**
 * The appointment form (spec 3 §3, §5, §9): type (GENERAL, HPI or ONBOARDING), duration (15),
 * timezone (America/Los_Angeles or Pacific/Auckland), yyyy-MM-dd'T'HH:mm, physician, the two
 * notes, and the consumer email or the conversation id. Its submit button lives with its user
 * (`form={id}`): the exception desk's dialog and the scheduling screen each put their own.
 */
export function AppointmentForm({
  id,
  conversationId,
  enabled = true,
  onScheduled,
  onBusyChange,
}: AppointmentFormProps) {
  const toast = useToast();
  const physicians = usePhysicians(enabled);
  const schedule = useScheduleAppointment();
  const busy = schedule.isPending;
  useEffect(() => onBusyChange?.(busy), [busy, onBusyChange]);
  const [form, setForm] = useState<Form>({
    type: APPOINTMENT_DEFAULTS.type,
    duration: String(APPOINTMENT_DEFAULTS.duration),
    timezone: APPOINTMENT_DEFAULTS.timezone,
    fromDateTime: '',
    staffId: '',
    appointmentNote: '',
    consumerNote: '',
    consumerEmail: '',
    conversationId: conversationId ?? '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const set = (key: keyof Form) => (event: { target: { value: string } }) =>
    setForm((previous) => ({ ...previous, [key]: event.target.value }));

  const submit = () => {
    const found = validateAppointment(form);
    setErrors(found);
    const physician = physicians.data?.items.find((p) => p.id === form.staffId);
    if (Object.keys(found).length > 0 || !physician) {
      return;
    }
    schedule.mutate(
      {
        type: form.type,
        fromDateTime: form.fromDateTime,
        duration: Number(form.duration),
        timezone: form.timezone,
        staffId: physician.id,
        staffFirstName: physician.firstName,
        staffLastName: physician.lastName,
        appointmentNote: form.appointmentNote.trim(),
        consumerNote: form.consumerNote.trim(),
        ...(form.conversationId.trim() ? { conversationId: form.conversationId.trim() } : {}),
        ...(form.consumerEmail.trim() ? { consumerEmail: form.consumerEmail.trim() } : {}),
      },
      {
        onSuccess: (appointment) => {
          toast.success(SCHEDULE_SUCCESS_MESSAGE);
          onScheduled(appointment);
        },
        onError: (error) => {
          // Spec 3 §8: an answer of 300 or more says to try again; a failure adds the error.
          toast.error(
            error instanceof HttpError && error.body === undefined
              ? SCHEDULE_ERROR_MESSAGE
              : `${SCHEDULE_ERROR_MESSAGE} ${errorMessage(error)}`,
          );
        },
      },
    );
  };

  // With no physician to choose, say why rather than show an empty list.
  const physicianProblem = physicians.isError
    ? `Could not load the physicians: ${errorMessage(physicians.error)}`
    : physicians.data?.items.length === 0
      ? 'No physicians are registered yet: the assistant registers them.'
      : undefined;

  const field = (key: keyof Form) => ({
    value: form[key],
    onChange: set(key),
    error: errors[key] !== undefined,
    helperText: errors[key],
    fullWidth: true,
  });

  return (
    <form
      id={id}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack sx={{ gap: 2, pt: 1 }}>
        <TextField select label="Appointment type" {...field('type')}>
          {APPOINTMENT_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {APPOINTMENT_TYPE_LABELS[type]}
            </MenuItem>
          ))}
        </TextField>
        <Stack direction="row" sx={{ gap: 2 }}>
          <TextField
            label="Date and time"
            type="datetime-local"
            required
            slotProps={{ inputLabel: { shrink: true } }}
            {...field('fromDateTime')}
          />
          <TextField
            label="Duration (minutes)"
            type="number"
            required
            slotProps={{ htmlInput: { min: 1, max: APPOINTMENT_MAX_DURATION, step: 1 } }}
            {...field('duration')}
          />
        </Stack>
        <TextField select label="Timezone" {...field('timezone')}>
          {APPOINTMENT_TIMEZONES.map((zone) => (
            <MenuItem key={zone} value={zone}>
              {zone}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Physician"
          required
          {...field('staffId')}
          {...(physicianProblem ? { error: true, helperText: physicianProblem } : {})}
        >
          {(physicians.data?.items ?? []).map((physician) => (
            <MenuItem key={physician.id} value={physician.id}>
              {physician.firstName} {physician.lastName}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Appointment note"
          required
          multiline
          minRows={2}
          maxRows={MAX_ROWS}
          {...field('appointmentNote')}
        />
        <TextField
          label="Consumer note"
          required
          multiline
          minRows={2}
          maxRows={MAX_ROWS}
          {...field('consumerNote')}
        />
        <TextField label="Consumer email" type="email" {...field('consumerEmail')} />
        <TextField label="Conversation id" {...field('conversationId')} />
      </Stack>
    </form>
  );
}
