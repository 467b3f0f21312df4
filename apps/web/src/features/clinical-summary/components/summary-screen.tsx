import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { PORTAL_ROUTES } from '@loopdesk/contracts/portal-routes.ts';
import type { SummaryDocument, SummaryJob } from '@loopdesk/contracts/summaries.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { JobToasts } from '../../../components/job-toasts.tsx';
import { TaskHeader } from '../../../components/task-header.tsx';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { saveSummaryJob } from '../api/save-job.ts';
import { useSendSummaryJob } from '../api/send-job.ts';
import { useTakeNextSummaryJob } from '../api/take-next-job.ts';
import { QueueView } from './queue-view.tsx';
import { SummaryEditor } from './summary-editor.tsx';
import { TranscriptTab } from './transcript-tab.tsx';

const SCREEN_PATH = PORTAL_ROUTES.find((route) => route.id === 'clinical-summary')?.path ?? '/';

/** How long after the last edit the note is saved on the server. */
export const SAVE_DELAY_MS = 800;

/** The outcome toast of a sent note (issue 20 "Outcome toasts"). */
export const SENT_MESSAGE = 'Clinical note sent to the physician.';

/** The job view: the note on the left, the transcript tab on the right (spec 2 §2). */
function JobView({ job, onSent }: { job: SummaryJob; onSent: () => void }) {
  const [current, setCurrent] = useState(job);
  const send = useSendSummaryJob();
  const toast = useToast();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onChange = (document: SummaryDocument) => {
    const next = { ...current, document };
    setCurrent(next);
    clearTimeout(timer.current);
    // Spec 2 §8: a failed save is only logged; the send carries the whole note anyway.
    timer.current = setTimeout(() => {
      saveSummaryJob(next).catch((error: unknown) => console.error('Summary save failed', error));
    }, SAVE_DELAY_MS);
  };

  const onSend = () => {
    clearTimeout(timer.current);
    send.mutate(current, {
      onSuccess: onSent,
      onError: (error) => toast.error(errorMessage(error)),
    });
  };

  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <TaskHeader
        back={{ to: SCREEN_PATH, label: 'Summary Jobs' }}
        trail={['Summary Jobs']}
        title="Clinical Summary Review"
        instruction="Check the note against the conversation, correct its codes, then send it to the physician."
      />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Paper variant="outlined" sx={{ p: 2, flex: 3, minWidth: 0, width: '100%' }}>
          <SummaryEditor document={current.document} onChange={onChange} />
          <Button variant="contained" onClick={onSend} disabled={send.isPending}>
            Send clinical note to physician
          </Button>
        </Paper>
        <Paper variant="outlined" sx={{ flex: 2, minWidth: 0, width: '100%' }}>
          <Tabs value="transcript" aria-label="About this note">
            <Tab value="transcript" label="Transcript" id="summary-tab-transcript" />
          </Tabs>
          <div role="tabpanel" aria-labelledby="summary-tab-transcript">
            <TranscriptTab jobId={job.id} />
          </div>
        </Paper>
      </Stack>
    </Stack>
  );
}

/**
 * Clinical Summary Review Jobs (spec 2 §2): the queue line and 'Get next job', then the held job.
 * The job's id is in the address (`?job=`), so the header's way back returns to the queue; 'Get
 * next job' gives the reviewer the job they still hold.
 */
export function SummaryScreen() {
  const [job, setJob] = useState<SummaryJob | null>(null);
  const [params, setParams] = useSearchParams();
  const take = useTakeNextSummaryJob();
  // Not tied to the job: the outcome stays up after the job view is gone.
  const toast = useToast();
  const queryClient = useQueryClient();
  const refreshSize = () =>
    queryClient.invalidateQueries({ queryKey: ['queues', 'hpi-summarisation', 'size'] });

  const onTake = () => {
    take.mutate(undefined, {
      onSuccess: (next) => {
        setJob(next);
        if (next) {
          setParams({ job: next.id });
        }
        void refreshSize();
      },
      // Spec 2 §8: "Next summary job fails → an empty job results".
      onError: (error) => {
        console.error('Next summary job failed', error);
        setJob(null);
      },
    });
  };

  if (!job || params.get('job') !== job.id) {
    return <QueueView onTake={onTake} busy={take.isPending} />;
  }
  return (
    <JobToasts job={job.id}>
      <JobView
        key={job.id}
        job={job}
        onSent={() => {
          toast.success(SENT_MESSAGE);
          setJob(null);
          setParams({});
          void refreshSize();
        }}
      />
    </JobToasts>
  );
}
