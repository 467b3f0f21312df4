import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { buildPriorityPayload } from '@loopdesk/workbench/payloads.ts';
import { useMemo, useRef, useState } from 'react';
import { useToast } from '../../components/toast-context.ts';
import { sendException } from '../utils/exception.ts';
import { readMessageJob, readPriorityJob } from '@loopdesk/workbench/job-data.ts';
import { DigitRadioGroup } from './digit-radio-group.tsx';
import { ExceptionButton } from './exception-button.tsx';
import type { PanelProps } from './panel-props.ts';
import { useSubmitShortcut } from '../hooks/use-submit-shortcut.ts';

/** Spec 1 §2 "Priority screen". */
export const PRIORITY_HEADING = 'Select the highest priority complaint.';
/** Submit with no choice (ours: the spec gives no message). */
export const SELECT_PRIORITY_MESSAGE = 'Please select a complaint to continue.';
/** A priority job without choices (ours). */
export const NO_CHOICES_MESSAGE =
  'This job lists no complaints to choose from: raise an exception instead.';
/** A priority job without a conversation id cannot be answered. */
export const MISSING_CONVERSATION_MESSAGE =
  'This job has no conversation id: raise an exception instead.';

/**
 * The priority job (intent.hpi.priority.job): the technician picks the complaint to discuss first;
 * hpi.prioritised `{action:'set_priority', conversationId, priority}` carries the choice's id.
 * Digits 1-9 pick the choices (issue 20 "one keyboard model").
 */
export function PriorityPanel({ job, submit, busy }: PanelProps) {
  const toast = useToast();
  const view = useMemo(() => readMessageJob(job.data), [job.data]);
  const { question, choices } = useMemo(() => readPriorityJob(job.data), [job.data]);
  const [chosen, setChosen] = useState<string | null>(null);

  const onSubmit = () => {
    if (chosen === null) {
      toast.error(SELECT_PRIORITY_MESSAGE);
      return;
    }
    if (view.conversationId === undefined) {
      toast.error(MISSING_CONVERSATION_MESSAGE);
      return;
    }
    submit(
      'hpi.prioritised',
      buildPriorityPayload({ conversationId: view.conversationId, priority: chosen }),
    );
  };
  const raise = () => sendException(job, view, submit);
  const panelRef = useRef<HTMLElement>(null);
  useSubmitShortcut(() => (busy ? undefined : onSubmit()), panelRef);

  return (
    <Box ref={panelRef} component="section" aria-label="Job" aria-busy={busy}>
      <Typography variant="h5" component="h2" id="priority-heading">
        {PRIORITY_HEADING}
      </Typography>
      {question ? (
        <Typography sx={{ color: 'text.secondary', my: 1 }}>{question}</Typography>
      ) : null}
      {choices.length === 0 ? (
        <Typography role="alert" sx={{ my: 1 }}>
          {NO_CHOICES_MESSAGE}
        </Typography>
      ) : null}
      <DigitRadioGroup
        labelledBy="priority-heading"
        options={choices.map((choice) => ({ value: choice.id, label: choice.extract }))}
        value={chosen}
        onChange={setChosen}
        enabled={!busy}
      />
      <Stack direction="row" sx={{ mt: 3, gap: 2 }}>
        <ExceptionButton onRaise={raise} disabled={busy} />
        <Button variant="contained" onClick={onSubmit} disabled={busy}>
          Submit
        </Button>
      </Stack>
    </Box>
  );
}
