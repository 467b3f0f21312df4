import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { TYPEAHEAD_MIN_CHARS } from '@loopdesk/contracts/intelligence.ts';
import { useState, type ReactNode } from 'react';
import { useConceptQuery, type QueriedConcept } from '../api/query-concepts.ts';
import { useLoadError } from '../hooks/use-load-error.ts';

/** A chosen concept (spec 3 §3 "Annotation option": conceptId, name, canonicalName). */
export interface ConceptChoice {
  conceptId: string;
  name: string;
}

const choiceOf = (option: QueriedConcept): ConceptChoice => ({
  conceptId: option.conceptId,
  name: option.canonicalName,
});
const asOption = (choice: ConceptChoice): QueriedConcept => ({
  conceptId: choice.conceptId,
  canonicalName: choice.name,
  aliases: [],
});
const noOptions = (text: string) =>
  text.trim().length < TYPEAHEAD_MIN_CHARS
    ? `Type at least ${TYPEAHEAD_MIN_CHARS} characters`
    : 'No matching concepts';

/** The search results, with the chosen ones first so the field can show them. */
function optionsWith(results: readonly QueriedConcept[], chosen: readonly ConceptChoice[]) {
  const ids = new Set(results.map((r) => r.conceptId));
  return [...chosen.filter((c) => !ids.has(c.conceptId)).map(asOption), ...results];
}

export interface ConceptPickerProps {
  label: ReactNode;
  value: ConceptChoice | null;
  onChange: (value: ConceptChoice | null) => void;
  /** Text searched before the user types (e.g. the entity's extract). */
  initialText?: string;
  /** Shown as an error toast when the search fails (spec 3 §8). */
  errorMessage: string;
  disabled?: boolean;
  autoFocus?: boolean;
  /** A line under the field, e.g. that no concept is chosen yet although text is searched. */
  helperText?: string;
}

/** One concept from `data/concept/_query`, searched from 3 typed characters (spec 3 §9). */
export function ConceptPicker({
  label,
  value,
  onChange,
  initialText = '',
  errorMessage,
  disabled = false,
  autoFocus = false,
  helperText,
}: ConceptPickerProps) {
  const [text, setText] = useState(value?.name ?? initialText);
  const concepts = useConceptQuery(text);
  useLoadError(concepts.isError, errorMessage);
  return (
    <Autocomplete<QueriedConcept>
      sx={{ flex: 1, minWidth: 220 }}
      disabled={disabled}
      options={optionsWith(concepts.data ?? [], value ? [value] : [])}
      getOptionLabel={(option) => option.canonicalName}
      getOptionKey={(option) => option.conceptId}
      isOptionEqualToValue={(option, chosen) => option.conceptId === chosen.conceptId}
      filterOptions={(all) => all}
      value={value ? asOption(value) : null}
      onChange={(_event, next) => onChange(next ? choiceOf(next) : null)}
      inputValue={text}
      onInputChange={(_event, next, reason) => {
        // MUI resets the input to '' when there is no value: keep the text to search instead.
        if (reason !== 'reset' || next !== '') {
          setText(next);
        }
      }}
      loading={concepts.isFetching}
      noOptionsText={noOptions(text)}
      renderOption={(props, option) => {
        const { key, ...rest } = props;
        return (
          <li key={key} {...rest}>
            {option.canonicalName}
            {option.aliases.length > 0 ? (
              <span style={{ opacity: 0.6, marginLeft: 8 }}>
                {option.aliases.slice(0, 3).join(', ')}
              </span>
            ) : null}
          </li>
        );
      }}
      renderInput={(params) => (
        <TextField {...params} label={label} autoFocus={autoFocus} helperText={helperText} />
      )}
    />
  );
}

export interface ConceptMultiPickerProps {
  label: string;
  value: readonly ConceptChoice[];
  onChange: (value: ConceptChoice[]) => void;
  errorMessage: string;
}

/** A searchable multi-select of concepts; it searches from 3 typed characters (spec 3 §2). */
export function ConceptMultiPicker({
  label,
  value,
  onChange,
  errorMessage,
}: ConceptMultiPickerProps) {
  const [text, setText] = useState('');
  const concepts = useConceptQuery(text);
  useLoadError(concepts.isError, errorMessage);
  return (
    <Autocomplete<QueriedConcept, true>
      multiple
      options={optionsWith(concepts.data ?? [], value)}
      getOptionLabel={(option) => option.canonicalName}
      getOptionKey={(option) => option.conceptId}
      isOptionEqualToValue={(option, chosen) => option.conceptId === chosen.conceptId}
      filterOptions={(all) => all}
      filterSelectedOptions
      value={value.map(asOption)}
      onChange={(_event, next) => onChange(next.map(choiceOf))}
      inputValue={text}
      onInputChange={(_event, next, reason) => {
        // Keep the typed text after choosing, so several can be picked from one search.
        if (reason !== 'reset') {
          setText(next);
        }
      }}
      loading={concepts.isFetching}
      noOptionsText={noOptions(text)}
      renderInput={(params) => <TextField {...params} label={label} />}
    />
  );
}
