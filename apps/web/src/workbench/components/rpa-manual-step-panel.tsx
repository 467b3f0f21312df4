import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo, useRef } from 'react';
import { sendException } from '../utils/exception.ts';
import { rpaClearPayload } from '../utils/job-payloads.ts';
import { readMessageJob, readRpaJob } from '@loopdesk/workbench/job-data.ts';
import { ExceptionButton } from './exception-button.tsx';
import { usePatientName } from './job-context.tsx';
import type { PanelProps } from './panel-props.ts';
import { useSubmitShortcut } from '../hooks/use-submit-shortcut.ts';

/** Spec 1 §2 "Manual RPA step screen". */
export const RPA_HEADING = 'RPA manual step needed.';
export const OPEN_PORTAL_LABEL = 'Open Portal';
/** The done button (the spec names it only 'a done button'). */
export const RPA_DONE_LABEL = 'Done';
/** A job whose portal is missing or not a web address (ours). */
export const NO_PORTAL_MESSAGE = 'This job gives no portal address.';

/**
 * The manual RPA step (robot-process-automation.manual-step.job): the technician does the step in
 * the portal, opened in a new tab, then clears the robot with rpa.robot.clear.
 */
export function RpaManualStepPanel({ job, submit, busy }: PanelProps) {
  const view = useMemo(() => readMessageJob(job.data), [job.data]);
  const { portal, step } = useMemo(() => readRpaJob(job.data), [job.data]);
  const raise = () => sendException(job, view, submit);
  const done = () => submit('rpa.robot.clear', rpaClearPayload(view));
  const panelRef = useRef<HTMLElement>(null);
  useSubmitShortcut(() => (busy ? undefined : done()), panelRef);
  // Issue 20: the step names the patient it is for.
  const patient = usePatientName(job);
  return (
    <Box ref={panelRef} component="section" aria-label="Job" aria-busy={busy}>
      <Typography variant="h5" component="h2">
        {RPA_HEADING}
      </Typography>
      {patient ? <Typography sx={{ my: 1 }}>For the patient {patient}.</Typography> : null}
      {step ? <Typography sx={{ my: 1 }}>{step}</Typography> : null}
      {portal ? null : (
        <Typography role="alert" sx={{ my: 1 }}>
          {NO_PORTAL_MESSAGE}
        </Typography>
      )}
      <Stack direction="row" sx={{ mt: 3, gap: 2 }}>
        {portal ? (
          <Button
            variant="outlined"
            // A new job takes the keyboard at once: Enter opens the portal.
            autoFocus
            onClick={() => window.open(portal, '_blank', 'noopener,noreferrer')}
          >
            {OPEN_PORTAL_LABEL}
          </Button>
        ) : null}
        <ExceptionButton onRaise={raise} disabled={busy} />
        <Button variant="contained" disabled={busy} onClick={done}>
          {RPA_DONE_LABEL}
        </Button>
      </Stack>
    </Box>
  );
}
