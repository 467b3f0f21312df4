import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useModelItems } from '../api/get-model-items.ts';
import { useLoadError } from '../hooks/use-load-error.ts';
import { DIFFERENTIAL_PROMPT } from '../utils/messages.ts';
import { checkSubmission } from '../utils/task-screens.ts';
import { TaskLayout, type TaskScreenProps } from './task-layout.tsx';
import { Transcript, conversationOf, patientLine } from './transcript.tsx';

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
  const [ranking, setRanking] = useState<Diagnosis[]>([]);
  const options: Diagnosis[] = (conditions.data ?? []).map((c) => ({
    name: c.display,
    code: c.bid,
  }));

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
        <Autocomplete<Diagnosis, true, false, true>
          multiple
          freeSolo
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
          onChange={(_event, next) =>
            setRanking(
              next
                .map((item) =>
                  typeof item === 'string' ? { name: item.trim(), code: null } : item,
                )
                .filter(
                  (item, index, all) =>
                    item.name !== '' &&
                    all.findIndex((o) => o.name.toLowerCase() === item.name.toLowerCase()) ===
                      index,
                ),
            )
          }
          renderValue={(value, getItemProps) =>
            value.map((option, index) => {
              const { key, ...itemProps } = getItemProps({ index });
              const name = typeof option === 'string' ? option : option.name;
              return <Chip key={key} {...itemProps} label={`${index + 1}. ${name}`} />;
            })
          }
          loading={conditions.isFetching}
          renderInput={(params) => (
            <TextField
              {...params}
              label="Diagnoses"
              helperText="Choose conditions or type one and press Enter; the order is the ranking"
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
                  primary={`${index + 1}. ${d.name}`}
                  secondary={d.code === null ? 'typed' : undefined}
                />
              </ListItem>
            ))}
          </List>
        ) : null}
      </Stack>
    </TaskLayout>
  );
}
