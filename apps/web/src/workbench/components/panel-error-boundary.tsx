import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { readMessageJob } from '@loopdesk/workbench/job-data.ts';
import { Component, type ReactNode } from 'react';
import { exceptionLabelOf, sendException } from '../utils/exception.ts';
import { ExceptionButton } from './exception-button.tsx';
import type { PanelProps } from './panel-props.ts';

/** What a panel that failed to show its job says (ours: never a blank screen). */
export const panelFailedMessage = (reason: string): string =>
  `This job could not be shown (${reason}). Raise an exception to pass it on.`;

interface State {
  readonly error: Error | null;
}

/**
 * Catches a panel that throws while showing a job whose data it cannot read, and offers the
 * exception instead, so that a bad job never leaves a blank screen or a stuck technician.
 */
export class PanelErrorBoundary extends Component<PanelProps & { children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error('an unknown error') };
  }

  override render() {
    const { error } = this.state;
    if (!error) {
      return this.props.children;
    }
    const { job, submit, busy } = this.props;
    const view = readMessageJob(job.data);
    const raise = () => sendException(job, view, submit);
    return (
      <Box component="section" aria-label="Job">
        <Typography role="alert" sx={{ mb: 2 }}>
          {panelFailedMessage(error.message)}
        </Typography>
        <ExceptionButton onRaise={raise} disabled={busy} label={exceptionLabelOf(job, view)} />
      </Box>
    );
  }
}
