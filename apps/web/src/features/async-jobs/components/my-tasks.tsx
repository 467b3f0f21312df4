import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { AsyncTask, Pipeline } from '@loopdesk/contracts/async-jobs.ts';
import { Link as RouterLink } from 'react-router';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { useMyTasks, useReleaseTask } from '../api/drafts.ts';
import { stepLabel, taskSubject } from '../utils/task-screens.ts';
import { taskPath } from './task-path.ts';

/** How a held task is named in the list: its subject, else its pipeline's name. */
function nameOf(task: AsyncTask, pipelines: readonly Pipeline[]): string {
  const pipeline = pipelines.find((candidate) => candidate.id === task.lock.pipeline);
  return taskSubject(task) || pipeline?.name || 'Task';
}

/**
 * "My tasks" (issue 20 point 17): the tasks the user holds now, each linking back to its screen
 * (where a draft is restored) and each releasable to its queue.
 */
export function MyTasks({ pipelines }: { pipelines: readonly Pipeline[] }) {
  const toast = useToast();
  const mine = useMyTasks();
  const release = useReleaseTask();
  const tasks = mine.data ?? [];
  if (tasks.length === 0) {
    return null;
  }
  return (
    <Paper component="section" variant="outlined" aria-labelledby="async-my-tasks" sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" id="async-my-tasks">
        My tasks
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Tasks you hold: nobody else can take them until you finish or release them.
      </Typography>
      <List dense aria-labelledby="async-my-tasks">
        {tasks.map((task) => {
          const pipeline = pipelines.find((candidate) => candidate.id === task.lock.pipeline);
          const name = nameOf(task, pipelines);
          const place = `${pipeline?.name ?? `Pipeline ${task.lock.pipeline}`} · ${stepLabel(task.lock.step)}`;
          const params = {
            pipelineId: String(task.lock.pipeline),
            step: task.lock.step,
            taskId: task.id,
          };
          return (
            <ListItem
              key={task.id}
              disableGutters
              secondaryAction={
                <Button
                  size="small"
                  aria-label={`Release ${name} to its queue`}
                  disabled={release.isPending}
                  onClick={() =>
                    release.mutate(params, {
                      onSuccess: () => toast.success(`Released “${name}”: it is back in ${place}.`),
                      onError: (error) => toast.error(errorMessage(error)),
                    })
                  }
                >
                  Release
                </Button>
              }
            >
              <ListItemText
                primary={
                  <Link
                    component={RouterLink}
                    to={taskPath(task.lock.pipeline, task.lock.step, task.id)}
                  >
                    {name}
                  </Link>
                }
                secondary={`${place}${task.draft ? ' · draft kept' : ''}`}
              />
            </ListItem>
          );
        })}
      </List>
    </Paper>
  );
}
