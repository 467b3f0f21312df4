import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { TYPEAHEAD_MIN_CHARS } from '@loopdesk/contracts/intelligence.ts';
import { useRef, useState } from 'react';
import { useToast } from '../../../components/toast-context.ts';
import { useObservationLookup } from '../api/search-observations.ts';
import { OBSERVATION_LOOKUP_ERROR } from '../utils/messages.ts';

export interface ObservationAutocompleteProps {
  value: string | null;
  onChange: (value: string | null) => void;
  /** Shown under the field, and marks it as in error. */
  error?: string | undefined;
}

/**
 * The Observation field of a differential row (spec 3 §2): options load from 3 typed characters
 * on; fewer clears them (spec 3 §4).
 */
export function ObservationAutocomplete({ value, onChange, error }: ObservationAutocompleteProps) {
  const toast = useToast();
  const lookup = useObservationLookup();
  const [options, setOptions] = useState<string[]>([]);
  const [inputValue, setInputValue] = useState(value ?? '');
  const [loading, setLoading] = useState(false);
  // Only the answer to the latest text may set the options.
  const latest = useRef(0);

  const search = (text: string) => {
    const request = ++latest.current;
    if (text.trim().length < TYPEAHEAD_MIN_CHARS) {
      setOptions([]);
      setLoading(false);
      return;
    }
    setLoading(true);
    lookup(text).then(
      (found) => {
        if (request === latest.current) {
          setOptions(found.map((option) => option.name));
          setLoading(false);
        }
      },
      () => {
        if (request === latest.current) {
          setOptions([]);
          setLoading(false);
          toast.error(OBSERVATION_LOOKUP_ERROR);
        }
      },
    );
  };

  const short = inputValue.trim().length < TYPEAHEAD_MIN_CHARS;
  return (
    <Autocomplete
      sx={{ flex: 1, minWidth: 240 }}
      options={value && !options.includes(value) ? [value, ...options] : options}
      value={value}
      onChange={(_event, next) => onChange(next)}
      inputValue={inputValue}
      onInputChange={(_event, text, reason) => {
        setInputValue(text);
        // Choosing an option fills the input with its name: no new lookup for that.
        if (reason === 'input' || reason === 'clear') {
          search(text);
        }
      }}
      filterOptions={(all) => all}
      loading={loading}
      noOptionsText={
        short ? `Type at least ${TYPEAHEAD_MIN_CHARS} characters` : 'No matching observations'
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label="Observation"
          required
          error={Boolean(error)}
          helperText={error}
        />
      )}
    />
  );
}
