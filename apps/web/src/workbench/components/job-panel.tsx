import Typography from '@mui/material/Typography';
import { useState, type ComponentType } from 'react';
import { readMessageJob } from '@loopdesk/workbench/job-data.ts';
import { JobToasts } from '../../components/job-toasts.tsx';
import {
  BUSY_MESSAGE,
  type TechnicianJob,
  type TechnicianSession,
} from '../../lib/socket/use-technician-session.ts';
import { EntityNormalisationPanel } from './entity-normalisation-panel.tsx';
import { IntentAnnotationPanel } from './intent-annotation-panel.tsx';
import { JobContextHeader } from './job-context.tsx';
import { MessageAnnotationPanel } from './message-annotation-panel.tsx';
import { PanelErrorBoundary } from './panel-error-boundary.tsx';
import type { PanelProps } from './panel-props.ts';
import { PriorityPanel } from './priority-panel.tsx';
import { RewordPanel } from './reword-panel.tsx';
import { RpaManualStepPanel } from './rpa-manual-step-panel.tsx';
import { useColourKeys } from '../hooks/use-colour-keys.ts';

/**
 * The task panels (spec 1 §2 "a task panel chosen by job type", spec 2 §2 "Federated-style task
 * panels"). The purpose of a message job (spec 1 §3 job.purpose) picks reword and normalisation;
 * annotate-only and verify-answered are purposes of the annotation panel.
 */
export type PanelKind =
  | 'message-annotation'
  | 'reword'
  | 'entity-normalisation'
  | 'intent-annotation'
  | 'priority'
  | 'rpa-manual-step';

/** The panel of a message job's data: by purpose; an exception task listing intents is the two-step flow. */
function messagePanelOf(job: TechnicianJob): PanelKind {
  const { purpose } = readMessageJob(job.data);
  if (purpose === 'reword') {
    return 'reword';
  }
  if (purpose === 'normalise') {
    return 'entity-normalisation';
  }
  if (job.type === 'exception.job' && Array.isArray(job.data.intents)) {
    return 'intent-annotation';
  }
  return 'message-annotation';
}

/** Which panel shows a job. */
export function panelKindOf(job: TechnicianJob): PanelKind {
  switch (job.type) {
    case 'message.annotation.job':
    case 'exception.job':
      return messagePanelOf(job);
    case 'intent.classification.job':
      return 'intent-annotation';
    case 'intent.hpi.priority.job':
      return 'priority';
    case 'robot-process-automation.manual-step.job':
      return 'rpa-manual-step';
  }
}

const PANELS: Record<PanelKind, ComponentType<PanelProps>> = {
  'message-annotation': MessageAnnotationPanel,
  reword: RewordPanel,
  'entity-normalisation': EntityNormalisationPanel,
  'intent-annotation': IntentAnnotationPanel,
  priority: PriorityPanel,
  'rpa-manual-step': RpaManualStepPanel,
};

/** Spec 2 §5, §8: shown on the panel when a submit is made while the previous one is in flight. */
export const BUSY_PROCESSING_TEXT = 'Busy processing.';

/**
 * Shows the held job in its panel, mounted anew for each job. An `exception.job` (the exception
 * desk's task) gets the same panels with the exception panel's wording of the rules. A panel that
 * cannot read its job says so and offers the exception. The colour keys act on its highlights.
 * The panel's toasts are tied to its job: they close when the job is replaced. Above the panel, the
 * job's context on the federated screen: the patient and the earlier turns (issue 20).
 */
export function JobPanel(props: PanelProps) {
  // 0 and backtick colour the highlights (spec 1 §9), on every panel.
  useColourKeys();
  const Panel = PANELS[panelKindOf(props.job)];
  const exception = props.exception ?? props.job.type === 'exception.job';
  // Spec 2 §5, §8: a submit while busy shows the snackbar (the session's error) and 'Busy
  // processing.' on the panel, until the server answers the first submission.
  // Shown while busy only: a submission that goes out starts a new busy spell without it.
  const [refusedBusy, setRefusedBusy] = useState(false);
  const { busy, submit: sessionSubmit } = props;
  const submit: TechnicianSession['submit'] = (type, data) => {
    const result = sessionSubmit(type, data);
    setRefusedBusy(!result.ok && result.error === BUSY_MESSAGE);
    return result;
  };
  const panelProps = { ...props, submit };
  return (
    <JobToasts job={props.job.id}>
      {/* The exception desk shows the whole transcript beside its task already. */}
      {exception ? null : <JobContextHeader job={props.job} />}
      <PanelErrorBoundary key={props.job.id} {...panelProps}>
        <Panel {...panelProps} exception={exception} />
      </PanelErrorBoundary>
      {busy && refusedBusy ? (
        <Typography role="status" sx={{ mt: 2, color: 'text.secondary' }}>
          {BUSY_PROCESSING_TEXT}
        </Typography>
      ) : null}
    </JobToasts>
  );
}
