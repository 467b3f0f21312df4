import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { JOB_QUEUE_EMPTY, type Pipeline } from '@loopdesk/contracts/async-jobs.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useToast } from '../../../components/toast-context.ts';
import { HttpError, errorMessage } from '../../../lib/http-error.ts';
import { jobsOf, usePipelineStats } from '../api/get-pipeline.ts';
import { usePipelines } from '../api/get-pipelines.ts';
import { usePopTask } from '../api/pop-task.ts';
import { stepLabel } from '../utils/task-screens.ts';
import { TAKE_NEXT_JOB } from '../utils/messages.ts';

/** The route of a taken task. */
export function taskPath(pipelineId: string | number, step: string, taskId: string): string {
  return `/jobs/async/pipelines/${pipelineId}/steps/${encodeURIComponent(step)}/tasks/${encodeURIComponent(taskId)}`;
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

  const take = (pipeline: Pipeline, step: string) => {
    if (busy) {
      return;
    }
    pop.mutate(
      { pipelineId: String(pipeline.id), step },
      {
        onSuccess: (task) => {
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
      {pipelines.data.map((pipeline, index) => {
        const pipelineStats = stats[index]?.data;
        const headingId = `async-pipeline-${pipeline.id}`;
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
              {pipeline.definition.main.steps.map((step) => {
                const jobs = jobsOf(pipelineStats, step.name);
                const empty = jobs === undefined || jobs < 1 || busy;
                const label = stepLabel(step.name);
                return (
                  <Card key={step.name} component="article" aria-label={label} variant="outlined">
                    <CardContent>
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
                    <CardActions>
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
