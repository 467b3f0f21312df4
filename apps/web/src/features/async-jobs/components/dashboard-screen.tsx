import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { JOB_QUEUE_EMPTY, type Pipeline } from '@loopdesk/contracts/async-jobs.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useToast } from '../../../components/toast-context.ts';
import { HttpError, errorMessage } from '../../../lib/http-error.ts';
import { jobsOf, usePipelineStats } from '../api/get-pipeline.ts';
import { usePipelines } from '../api/get-pipelines.ts';
import { usePopTask } from '../api/pop-task.ts';
import { stepLabel } from '../utils/task-screens.ts';
import { TAKE_NEXT_JOB } from '../utils/messages.ts';
import { MyTasks } from './my-tasks.tsx';
import { taskPath } from './task-path.ts';

export { taskPath } from './task-path.ts';

const ONLY_WITH_JOBS_KEY = 'loopdesk.async.onlyStepsWithJobs';

/** The "only steps with jobs" toggle, remembered in this browser. */
function useOnlyWithJobs(): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => {
    try {
      return window.localStorage.getItem(ONLY_WITH_JOBS_KEY) === 'true';
    } catch {
      return false;
    }
  });
  const set = (next: boolean) => {
    setValue(next);
    try {
      window.localStorage.setItem(ONLY_WITH_JOBS_KEY, String(next));
    } catch {
      // Private mode: the toggle lasts for this page.
    }
  };
  return [value, set];
}

/** The step a task screen came back from (router state), whose button takes the focus. */
function cameFrom(state: unknown): { pipelineId: string; step: string } | undefined {
  const from = (state as { from?: { pipelineId?: unknown; step?: unknown } } | null)?.from;
  return typeof from?.pipelineId === 'string' && typeof from.step === 'string'
    ? { pipelineId: from.pipelineId, step: from.step }
    : undefined;
}

/** `/jobs/async`: one section per pipeline, one card per step (spec 3 §2). */
export function DashboardScreen() {
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const pipelines = usePipelines();
  const ids = (pipelines.data ?? []).map((pipeline) => String(pipeline.id));
  const stats = usePipelineStats(ids);
  const pop = usePopTask();
  const busy = pop.isPending;
  const [onlyWithJobs, setOnlyWithJobs] = useOnlyWithJobs();
  const location = useLocation();
  const from = cameFrom(location.state);
  const returnCard = useRef<HTMLElement>(null);
  const statsReady = stats.every((entry) => entry.data !== undefined);
  useEffect(() => {
    // Back from a task: the step's card (its button when it can take another) has the focus.
    const card = returnCard.current;
    if (!card || !statsReady) {
      return;
    }
    const button = card.querySelector<HTMLButtonElement>('button:not([disabled])');
    (button ?? card).focus();
  }, [statsReady, from?.pipelineId, from?.step]);

  const take = (pipeline: Pipeline, step: string) => {
    if (busy) {
      return;
    }
    pop.mutate(
      { pipelineId: String(pipeline.id), step },
      {
        onSuccess: (task) => {
          void queryClient.invalidateQueries({ queryKey: ['async-jobs', 'mine'] });
          void navigate(taskPath(pipeline.id, step, task.id));
        },
        onError: (error) => {
          const empty =
            error instanceof HttpError &&
            error.status === 404 &&
            error.body?.message === JOB_QUEUE_EMPTY;
          toast.error(empty ? JOB_QUEUE_EMPTY : errorMessage(error));
          void queryClient.invalidateQueries({
            queryKey: ['async-jobs', 'pipelines', String(pipeline.id)],
          });
        },
      },
    );
  };

  if (pipelines.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label="Loading pipelines" />
      </Box>
    );
  }
  if (pipelines.isError) {
    return (
      <Typography role="alert" color="error" sx={{ p: 2 }}>
        {errorMessage(pipelines.error)}
      </Typography>
    );
  }

  return (
    <Stack spacing={4} sx={{ p: 2 }}>
      <MyTasks pipelines={pipelines.data} />
      <FormControlLabel
        sx={{ alignSelf: 'flex-start' }}
        control={
          <Switch
            checked={onlyWithJobs}
            onChange={(event) => setOnlyWithJobs(event.target.checked)}
          />
        }
        label="Only steps with jobs"
      />
      {pipelines.data.map((pipeline, index) => {
        const pipelineStats = stats[index]?.data;
        const headingId = `async-pipeline-${pipeline.id}`;
        const steps = pipeline.definition.main.steps.filter(
          (step) => !onlyWithJobs || (jobsOf(pipelineStats, step.name) ?? 0) > 0,
        );
        return (
          <Box component="section" key={pipeline.id} aria-labelledby={headingId}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
              <Typography variant="h6" component="h2" id={headingId}>
                {pipeline.name}
              </Typography>
              {pipeline.definition.input ? (
                <IconButton
                  aria-label={`Add a job to ${pipeline.name}`}
                  onClick={() => void navigate(`/jobs/async/pipelines/${pipeline.id}/_add_task`)}
                >
                  <AddIcon />
                </IconButton>
              ) : null}
            </Stack>
            <Box
              sx={{
                display: 'grid',
                gap: 2,
                gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))',
              }}
            >
              {steps.length === 0 ? (
                <Typography variant="body2" color="text.secondary">
                  No jobs waiting in this pipeline.
                </Typography>
              ) : null}
              {steps.map((step) => {
                const jobs = jobsOf(pipelineStats, step.name);
                const empty = jobs === undefined || jobs < 1 || busy;
                const label = stepLabel(step.name);
                const returning =
                  from?.pipelineId === String(pipeline.id) && from.step === step.name;
                return (
                  <Card
                    key={step.name}
                    component="article"
                    aria-label={label}
                    variant="outlined"
                    tabIndex={returning ? -1 : undefined}
                    ref={returning ? returnCard : undefined}
                    sx={{ display: 'flex', flexDirection: 'column' }}
                  >
                    <CardContent sx={{ flexGrow: 1 }}>
                      <Typography variant="subtitle1" component="h3">
                        {label}
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {step.description}
                      </Typography>
                      <Typography variant="body2" sx={{ mt: 1 }}>
                        {`Jobs: ${jobs ?? '…'}`}
                      </Typography>
                    </CardContent>
                    <CardActions sx={{ mt: 'auto' }}>
                      <Button
                        variant="contained"
                        disabled={empty}
                        onClick={() => take(pipeline, step.name)}
                      >
                        {empty ? JOB_QUEUE_EMPTY : TAKE_NEXT_JOB}
                      </Button>
                    </CardActions>
                  </Card>
                );
              })}
            </Box>
          </Box>
        );
      })}
    </Stack>
  );
}
