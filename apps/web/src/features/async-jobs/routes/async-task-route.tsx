import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { usePipelines } from '../api/get-pipelines.ts';
import { useTask } from '../api/get-task.ts';
import { TaskDraftProvider } from '../components/task-draft.tsx';
import { TaskScreen } from '../components/task-screen.tsx';
import { DASHBOARD_PATH, FAILED_LOAD_RETURN_MS, TASK_TITLE } from '../utils/messages.ts';
import { placeOf, screenOf } from '../utils/task-screens.ts';

/**
 * `/jobs/async/pipelines/{pipelineId}/steps/{step}/tasks/{taskId}`: loads the task and the
 * pipelines, and shows the task on the screen its step names. A failed load (of either) shows the
 * error and returns to the dashboard after 5 seconds; a task other than the one asked for returns
 * at once (spec 3 §4).
 */
export function AsyncTaskRoute() {
  usePageTitle(TASK_TITLE);
  const toast = useToast();
  const navigate = useNavigate();
  const { pipelineId = '', step = '', taskId = '' } = useParams();
  const params = { pipelineId, step, taskId };
  const task = useTask(params);
  const pipelines = usePipelines();
  const failure = task.isError
    ? errorMessage(task.error)
    : pipelines.isError
      ? errorMessage(pipelines.error)
      : undefined;
  const wrongTask = task.data !== undefined && task.data.id !== taskId;

  useEffect(() => {
    if (failure === undefined) {
      return undefined;
    }
    toast.error(failure);
    const timer = setTimeout(() => void navigate(DASHBOARD_PATH), FAILED_LOAD_RETURN_MS);
    return () => clearTimeout(timer);
  }, [failure, navigate, toast]);

  useEffect(() => {
    if (wrongTask) {
      void navigate(DASHBOARD_PATH);
    }
  }, [wrongTask, navigate]);

  if (task.isPending || pipelines.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label="Loading task" />
      </Box>
    );
  }
  if (task.isError || pipelines.isError) {
    return (
      <Typography sx={{ p: 2 }} color="text.secondary">
        The task could not be loaded. Returning to the dashboard…
      </Typography>
    );
  }
  if (wrongTask) {
    return null;
  }
  return (
    <TaskDraftProvider key={task.data.id} task={task.data} params={params}>
      <TaskScreen
        task={task.data}
        params={params}
        place={placeOf(pipelines.data, task.data)}
        screen={screenOf(pipelines.data, task.data)}
      />
    </TaskDraftProvider>
  );
}
