import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import Autocomplete from '@mui/material/Autocomplete';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useModelItems } from '../api/get-model-items.ts';
import { useLoadError } from '../hooks/use-load-error.ts';
import { DIFFERENTIAL_PROMPT } from '../utils/messages.ts';
import { checkSubmission } from '../utils/task-screens.ts';
import { TermChip, splitTyped, uniqueByName, useNewTermQuestion } from './new-term.tsx';
import { TaskLayout, type TaskScreenProps } from './task-layout.tsx';
import { Transcript, conversationOf, patientLine } from './transcript.tsx';
import { listDraft, useDraftState } from '../hooks/use-draft-state.ts';

/** A diagnosis in the ranking: a known condition (with its code) or typed free text. */
export interface Diagnosis {
  name: string;
  code: string | null;
}

/**
 * The submit body (spec 3 §5): known entries with their code and rank, typed free-text entries
 * with a name, their code (the typed text) and a rank; ranks are 1-based.
 */
export function differentialBody(ranking: readonly Diagnosis[]) {
  return {
    differential: ranking.map((d, index) => ({
      name: d.name,
      code: d.code ?? d.name,
      rank: index + 1,
    })),
  };
}

const nameOf = (d: Diagnosis) => d.name;

const move = <T,>(list: readonly T[], from: number, to: number): T[] => {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) {
    next.splice(to, 0, item);
  }
  return next;
};

/**
 * Differential (spec 3 §2): the conversation as question and answer pairs, and a ranked
 * multi-select of conditions, most likely first.
 */
export function DifferentialScreen(props: TaskScreenProps) {
  const conditions = useModelItems('conditions');
  useLoadError(conditions.isError, 'Error loading conditions');
  const [ranking, setRanking] = useDraftState<Diagnosis[]>('ranking', () => [], listDraft());
  const options: Diagnosis[] = (conditions.data ?? []).map((c) => ({
    name: c.display,
    code: c.bid,
  }));
  const newTerm = useNewTermQuestion('the ranking');

  return (
    <TaskLayout
      {...props}
      title="Differential Diagnosis Job"
      subtitle={patientLine(props.task)}
      build={() => checkSubmission('differential', differentialBody(ranking))}
    >
      <Stack spacing={2}>
        <Transcript items={conversationOf(props.task)} />
        <Typography>{DIFFERENTIAL_PROMPT}</Typography>
        {newTerm.dialog}
        <Autocomplete<Diagnosis, true, true, true>
          multiple
          freeSolo
          autoHighlight
          disableClearable
          options={options}
          getOptionLabel={(option) => (typeof option === 'string' ? option : option.name)}
          getOptionKey={(option) =>
            typeof option === 'string' ? option : (option.code ?? `free:${option.name}`)
          }
          isOptionEqualToValue={(option, chosen) =>
            typeof chosen === 'string'
              ? option.name === chosen
              : option.code !== null
                ? option.code === chosen.code
                : option.name === chosen.name
          }
          filterSelectedOptions
          value={ranking}
          onChange={(_event, next, reason) => {
            // The ranking below is the one place entries are shown, moved and removed: the
            // field only adds (Backspace in it removes nothing unseen).
            if (reason === 'removeOption' || reason === 'clear') {
              return;
            }
            const { items, newTerms } = splitTyped(next, options, nameOf);
            const [term] = newTerms;
            if (term === undefined) {
              setRanking(uniqueByName(items, nameOf));
              return;
            }
            newTerm.ask(term, () =>
              setRanking((current) =>
                uniqueByName([...current, { name: term, code: null }], nameOf),
              ),
            );
          }}
          renderValue={() => null}
          loading={conditions.isFetching}
          renderInput={(params) => (
            <TextField
              {...params}
              label="Diagnoses"
              helperText="Choose a condition, or type a new term and press Enter; the ranking below is the order"
            />
          )}
        />
        {ranking.length > 0 ? (
          <List dense aria-label="Ranking">
            {ranking.map((d, index) => (
              <ListItem
                key={d.code ?? `free:${d.name}`}
                secondaryAction={
                  <Stack direction="row">
                    <IconButton
                      aria-label={`Move ${d.name} up`}
                      disabled={index === 0}
                      onClick={() => setRanking((current) => move(current, index, index - 1))}
                    >
                      <ArrowUpwardIcon />
                    </IconButton>
                    <IconButton
                      aria-label={`Move ${d.name} down`}
                      disabled={index === ranking.length - 1}
                      onClick={() => setRanking((current) => move(current, index, index + 1))}
                    >
                      <ArrowDownwardIcon />
                    </IconButton>
                    <IconButton
                      aria-label={`Remove ${d.name}`}
                      onClick={() => setRanking((current) => current.filter((_, i) => i !== index))}
                    >
                      <DeleteIcon />
                    </IconButton>
                  </Stack>
                }
              >
                <ListItemText
                  primary={
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <span>{`${index + 1}. `}</span>
                      <TermChip size="small" label={d.name} known={d.code !== null} />
                    </Stack>
                  }
                />
              </ListItem>
            ))}
          </List>
        ) : null}
      </Stack>
    </TaskLayout>
  );
}
