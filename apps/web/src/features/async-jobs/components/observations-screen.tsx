import DeleteIcon from '@mui/icons-material/Delete';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { checkSubmission, itemsOf, textOf } from '../utils/task-screens.ts';
import {
  OBSERVATION_CLASS_TYPES,
  ObservationAdder,
  type NewObservation,
} from './observation-adder.tsx';
import { TaskLayout, type TaskScreenProps } from './task-layout.tsx';
import { listDraft, useDraftState } from '../hooks/use-draft-state.ts';

/** The condition a condition task is about, as its header shows it. */
export function ConditionHeader({ task }: Pick<TaskScreenProps, 'task'>) {
  const name = textOf(task.data, 'condition') || textOf(task.condition, 'name');
  const reference = textOf(task.data, 'reference');
  const notes = textOf(task.data, 'notes');
  return (
    <Stack spacing={0.5}>
      <Typography>
        <Typography component="span" color="text.secondary">
          Condition:{' '}
        </Typography>
        {name}
      </Typography>
      {reference ? (
        <Typography variant="body2">
          <Typography component="span" variant="body2" color="text.secondary">
            Source material:{' '}
          </Typography>
          {reference}
        </Typography>
      ) : null}
      {notes ? (
        <Typography variant="body2">
          <Typography component="span" variant="body2" color="text.secondary">
            Notes:{' '}
          </Typography>
          {notes}
        </Typography>
      ) : null}
    </Stack>
  );
}

/**
 * Condition Observation Job (spec 3 §2 Observations): add observations, each with an observation
 * and its class, searching the observations of the chosen class type. Publish needs at least 1.
 */
export function ObservationsScreen(props: TaskScreenProps) {
  const existing = itemsOf(props.task.condition, 'observations');
  const [added, setAdded] = useDraftState<NewObservation[]>('added', () => [], listDraft());

  const build = () =>
    checkSubmission('observations', {
      observations: added.map((o) => ({
        observation: o.name,
        observationCUI: o.conceptId,
        observationClass: o.observationClass,
      })),
    });

  return (
    <TaskLayout {...props} title="Condition Observation Job" build={build}>
      <Stack spacing={2}>
        <ConditionHeader task={props.task} />
        <section aria-label="Known observations">
          <Typography variant="subtitle2">Known observations</Typography>
          {existing.length === 0 ? (
            <Typography color="text.secondary">None yet.</Typography>
          ) : (
            <Typography variant="body2">{existing.map((o) => o.text).join(', ')}</Typography>
          )}
        </section>
        <ObservationAdder
          classTypes={OBSERVATION_CLASS_TYPES}
          onAdd={(observation) => setAdded((current) => [...current, observation])}
        />
        {added.length > 0 ? (
          <List dense aria-label="Added observations">
            {added.map((o, index) => (
              <ListItem
                key={`${index}:${o.name}`}
                secondaryAction={
                  <IconButton
                    edge="end"
                    aria-label={`Delete ${o.name}`}
                    onClick={() => setAdded((current) => current.filter((_, i) => i !== index))}
                  >
                    <DeleteIcon />
                  </IconButton>
                }
              >
                <ListItemText primary={o.name} secondary={o.observationClass} />
              </ListItem>
            ))}
          </List>
        ) : null}
      </Stack>
    </TaskLayout>
  );
}
