import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { TYPEAHEAD_MIN_CHARS } from '@loopdesk/contracts/intelligence.ts';
import { useState } from 'react';
import { useClassItems, type ClassItem } from '../api/get-class-items.ts';
import { useLoadError } from '../hooks/use-load-error.ts';
import { COMPLETE_OBSERVATION, classesLoadError } from '../utils/messages.ts';

/** An observation chosen on the screen: its name, its concept when known, and its class. */
export interface NewObservation {
  name: string;
  conceptId: string | null;
  observationClass: string;
}

/** Class types a condition's observation may have (the KB's observation classes). */
export const OBSERVATION_CLASS_TYPES = ['symptom', 'sign', 'observation', 'epidemiologicalFactor'];
/** Spec 3 §2, §9: the relationship screens list the valid class types sign and symptom. */
export const RELATIONSHIP_CLASS_TYPES = ['sign', 'symptom'];

const CLASS_LABELS: Readonly<Record<string, string>> = {
  symptom: 'Symptom',
  sign: 'Sign',
  observation: 'Observation',
  epidemiologicalFactor: 'Epidemiological factor',
};

/** Matches of the typed text among a class's observations (3 characters or more). */
function matches(items: readonly ClassItem[], text: string): ClassItem[] {
  const wanted = text.trim().toLowerCase();
  if (wanted.length < TYPEAHEAD_MIN_CHARS) {
    return [];
  }
  return items.filter((item) => item.display.toLowerCase().includes(wanted)).slice(0, 50);
}

export interface ObservationAdderProps {
  classTypes: readonly string[];
  onAdd: (observation: NewObservation) => void;
}

/**
 * Observation class and observation, searched among the observations of that class type
 * (spec 3 §2 Observations); free text is allowed for an observation the KB lacks. Add needs
 * both ('Please complete both observation and observation class.').
 */
export function ObservationAdder({ classTypes, onAdd }: ObservationAdderProps) {
  const [observationClass, setObservationClass] = useState('');
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<ClassItem | null>(null);
  const [error, setError] = useState<string | undefined>(undefined);
  const items = useClassItems(observationClass);
  useLoadError(items.isError, classesLoadError(observationClass));

  const add = () => {
    const name = text.trim();
    if (!name || !observationClass) {
      setError(COMPLETE_OBSERVATION);
      return;
    }
    onAdd({
      name,
      conceptId: chosen && chosen.display === name ? chosen.id : null,
      observationClass,
    });
    setText('');
    setChosen(null);
    setError(undefined);
  };

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', flexWrap: 'wrap' }}>
      <TextField
        select
        label="Observation class"
        value={observationClass}
        onChange={(event) => {
          setObservationClass(event.target.value);
          setError(undefined);
        }}
        sx={{ minWidth: 200 }}
      >
        {classTypes.map((type) => (
          <MenuItem key={type} value={type}>
            {CLASS_LABELS[type] ?? type}
          </MenuItem>
        ))}
      </TextField>
      <Autocomplete<ClassItem, false, false, true>
        freeSolo
        sx={{ flex: 1, minWidth: 240 }}
        options={matches(items.data ?? [], text)}
        getOptionLabel={(option) => (typeof option === 'string' ? option : option.display)}
        getOptionKey={(option) => (typeof option === 'string' ? option : option.id)}
        filterOptions={(all) => all}
        value={chosen}
        onChange={(_event, next) => {
          setChosen(typeof next === 'string' ? null : next);
          if (next && typeof next !== 'string') {
            setText(next.display);
          }
          setError(undefined);
        }}
        inputValue={text}
        onInputChange={(_event, value, reason) => {
          if (reason !== 'reset') {
            setText(value);
            setError(undefined);
          }
        }}
        loading={items.isFetching}
        noOptionsText={
          observationClass === ''
            ? 'Choose an observation class first'
            : text.trim().length < TYPEAHEAD_MIN_CHARS
              ? `Type at least ${TYPEAHEAD_MIN_CHARS} characters`
              : 'No matching observations'
        }
        renderInput={(params) => (
          <TextField {...params} label="Observation" error={Boolean(error)} helperText={error} />
        )}
      />
      <Button variant="outlined" onClick={add} sx={{ mt: 1 }} aria-label="Add Observation">
        Add
      </Button>
    </Stack>
  );
}
