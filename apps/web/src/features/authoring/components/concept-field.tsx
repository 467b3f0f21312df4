import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import type { ConceptOption } from '@loopdesk/contracts/data-preparation.ts';
import { TYPEAHEAD_MIN_CHARS } from '@loopdesk/contracts/intelligence.ts';
import { useEffect, useState } from 'react';
import { useToast } from '../../../components/toast-context.ts';
import { callRoute } from '../../../lib/api-client.ts';
import { MESSAGES } from '../model/annotations.ts';

/**
 * The concept picker of the entity form (spec 2 §5 "Concept pickers search only after 3 or more
 * typed characters"): the Concept options of `query/umls_view` (with their semantic types and
 * UMLS codes), as the data preparation form's. A failed search says 'Error loading normalised
 * concepts' and offers nothing (spec 2 §8).
 */
export function ConceptField({
  initialText,
  onChoose,
}: {
  initialText: string;
  onChoose: (option: ConceptOption) => void;
}) {
  const toast = useToast();
  const [text, setText] = useState(initialText);
  const q = text.trim();
  const options = useQuery({
    queryKey: ['authoring', 'concepts', q],
    queryFn: ({ signal }) =>
      callRoute('GET', '/internal/data-preparation/query/:view', {
        params: { view: 'umls_view' },
        query: { q },
        signal,
      }),
    enabled: q.length >= TYPEAHEAD_MIN_CHARS,
    staleTime: 60_000,
    retry: false,
  });
  useEffect(() => {
    if (options.isError) {
      toast.error(MESSAGES.conceptsFailed);
    }
  }, [options.isError, toast]);
  return (
    <Autocomplete<ConceptOption>
      options={options.isError ? [] : (options.data?.results ?? [])}
      filterOptions={(all) => all}
      getOptionLabel={(option) => option.name}
      getOptionKey={(option) => option.conceptId}
      isOptionEqualToValue={(a, b) => a.conceptId === b.conceptId}
      value={null}
      inputValue={text}
      onInputChange={(_event, next, reason) => {
        if (reason !== 'reset') {
          setText(next);
        }
      }}
      onChange={(_event, option) => {
        if (option) {
          setText(option.name);
          onChoose(option);
        }
      }}
      loading={options.isFetching}
      noOptionsText={
        q.length < TYPEAHEAD_MIN_CHARS
          ? `Type ${TYPEAHEAD_MIN_CHARS} or more characters`
          : 'No concept found'
      }
      renderOption={(props, option) => {
        const { key, ...rest } = props;
        return (
          <li key={key} {...rest}>
            {option.name}
            <span style={{ opacity: 0.65, marginLeft: 8 }}>
              {[option.sources.find((s) => s.system === 'UMLS')?.code, ...option.types]
                .filter(Boolean)
                .join(' · ')}
            </span>
          </li>
        );
      }}
      renderInput={(params) => <TextField {...params} label="Concept" />}
    />
  );
}
