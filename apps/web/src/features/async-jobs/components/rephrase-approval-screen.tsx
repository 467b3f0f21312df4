import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { REPHRASE_INTENTS } from '@loopdesk/contracts/async-jobs.ts';
import { useId } from 'react';
import { checkSubmission, textOf, toggled } from '../utils/task-screens.ts';
import { StrikeList } from './item-lists.tsx';
import { TaskLayout, type TaskScreenProps } from './task-layout.tsx';
import { idSetDraft, textDraft, useDraftState } from '../hooks/use-draft-state.ts';

/** The intents in words (issue 20 point 22); the submitted values stay the spec's codes. */
export const INTENT_LABELS: Record<(typeof REPHRASE_INTENTS)[number], string> = {
  'clinical+medical': 'Clinical or medical',
  injury: 'Injury',
  exposure: 'Exposure',
  mental: 'Mental health',
  medication: 'Medication',
  maintenance: 'Maintenance',
  workers_comp: "Workers' compensation",
  screen: 'Screening',
  cosmetic: 'Cosmetic',
  other: 'Other',
};

/** The task's rephrases (plain strings), with their index as the id. */
function rephrasesOf(data: Record<string, unknown>): string[] {
  const value = data.rephrases;
  return Array.isArray(value)
    ? (value as unknown[]).filter((r): r is string => typeof r === 'string')
    : [];
}

/** Rephrase approval (spec 3 §2): strike out poor rephrases, choose the intent. */
export function RephraseApprovalScreen(props: TaskScreenProps) {
  const rephrases = rephrasesOf(props.task.data);
  const items = rephrases.map((text, index) => ({ id: String(index), text }));
  const [removed, setRemoved] = useDraftState<ReadonlySet<string>>(
    'removed',
    () => new Set(),
    idSetDraft,
  );
  const [intent, setIntent] = useDraftState('intent', () => '', textDraft);
  const labelId = useId();

  const toggle = (id: string) => setRemoved((current) => toggled(current, id));

  const build = () =>
    checkSubmission('rephrase.approval', {
      rephrases_removed: items.filter((i) => removed.has(i.id)).map((i) => i.text),
      rephrases: items.filter((i) => !removed.has(i.id)).map((i) => i.text),
      intents: intent ? [intent] : [],
    });

  return (
    <TaskLayout {...props} title="Rephrase approval" build={build}>
      <Stack spacing={2}>
        <Typography>
          <Typography component="span" color="text.secondary">
            Text:{' '}
          </Typography>
          {textOf(props.task.data, 'text')}
        </Typography>
        <section aria-label="Rephrases">
          <Typography variant="subtitle2">Rephrases</Typography>
          <StrikeList label="Rephrases" items={items} removed={removed} onToggle={toggle} />
        </section>
        <FormControl>
          <FormLabel id={labelId}>Intent</FormLabel>
          <RadioGroup
            row
            aria-labelledby={labelId}
            value={intent}
            onChange={(event) => setIntent(event.target.value)}
          >
            {REPHRASE_INTENTS.map((name) => (
              <FormControlLabel
                key={name}
                value={name}
                control={<Radio />}
                label={INTENT_LABELS[name]}
              />
            ))}
          </RadioGroup>
        </FormControl>
      </Stack>
    </TaskLayout>
  );
}
