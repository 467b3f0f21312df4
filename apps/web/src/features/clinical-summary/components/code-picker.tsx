import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { TYPEAHEAD_MIN_CHARS, type TypeaheadResult } from '@loopdesk/contracts/intelligence.ts';
import { useEffect, useState } from 'react';
import { useConceptTypeahead } from '../../../workbench/api/get-typeahead.ts';

export interface CodePickerProps {
  label: string;
  /** Text searched before the reviewer types (the highlighted words). */
  initialText: string;
  onPick: (concept: TypeaheadResult) => void;
}

const codesLine = (option: TypeaheadResult) =>
  (option.sources ?? [])
    .filter((s) => s.system === 'UMLS' || s.system === 'ICD10CM')
    .map((s) => `${s.system === 'ICD10CM' ? 'ICD-10' : s.system} ${s.code}`)
    .join(' · ');

/**
 * The knowledge base's concept typeahead (`/internal/utilities/typeahead`), asked from 3 typed
 * characters (spec 2 §5); a failure is only logged (spec 2 §8 "Typeahead failure").
 */
export function CodePicker({ label, initialText, onPick }: CodePickerProps) {
  const [text, setText] = useState(initialText);
  const concepts = useConceptTypeahead(text);
  useEffect(() => {
    if (concepts.isError) {
      console.error('Concept typeahead failed', concepts.error);
    }
  }, [concepts.isError, concepts.error]);
  return (
    <Autocomplete<TypeaheadResult>
      sx={{ minWidth: 280, flex: 1 }}
      options={concepts.data ?? []}
      getOptionLabel={(option) => option.canonicalName}
      getOptionKey={(option) => option.conceptId}
      filterOptions={(all) => all}
      value={null}
      onChange={(_event, chosen) => {
        if (chosen) {
          onPick(chosen);
        }
      }}
      inputValue={text}
      onInputChange={(_event, next, reason) => {
        if (reason !== 'reset') {
          setText(next);
        }
      }}
      loading={concepts.isFetching}
      noOptionsText={
        text.trim().length < TYPEAHEAD_MIN_CHARS
          ? `Type at least ${TYPEAHEAD_MIN_CHARS} characters`
          : 'No matching concepts'
      }
      renderOption={(props, option) => {
        const { key, ...rest } = props;
        return (
          <li key={key} {...rest}>
            {option.canonicalName}
            <span style={{ opacity: 0.7, marginLeft: 8 }}>{codesLine(option)}</span>
          </li>
        );
      }}
      renderInput={(params) => <TextField {...params} label={label} autoFocus size="small" />}
    />
  );
}
