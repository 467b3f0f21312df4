import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { TypeaheadResult } from '@loopdesk/contracts/intelligence.ts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useToast } from '../../components/toast-context.ts';
import { TYPEAHEAD_ERROR_MESSAGE, useConceptTypeahead } from '../api/get-typeahead.ts';
import { exceptionLabelOf, sendException } from '../utils/exception.ts';
import { conceptOf, normalisationAnswer } from '../utils/job-payloads.ts';
import { readMessageJob } from '@loopdesk/workbench/job-data.ts';
import { categoryName } from '@loopdesk/workbench/labels.ts';
import { ExceptionButton } from './exception-button.tsx';
import type { PanelProps } from './panel-props.ts';
import { useSubmitShortcut } from '../hooks/use-submit-shortcut.ts';
import { NO_ENTITY_MESSAGE } from './reword-panel.tsx';

/** Heading of the entity normalisation screen (spec 1 §2 names the screen, not its text). */
export const NORMALISE_HEADING = 'Normalise entity';
export const CONCEPT_FIELD_LABEL = 'Concept';
/** Submit with no concept chosen (ours: the spec gives no message). */
export const SELECT_CONCEPT_MESSAGE = 'Please select a concept to continue.';

const EMPTY: readonly TypeaheadResult[] = [];

/**
 * The entity normalisation job (job.purpose 'normalise'): the entity's extract, a concept typeahead
 * from 3 characters, and quinn.action.answer_quinn with action suggest_entity_normalisation.
 */
export function EntityNormalisationPanel({ job, submit, busy }: PanelProps) {
  const toast = useToast();
  const view = useMemo(() => readMessageJob(job.data), [job.data]);
  const entity = view.entity;
  const [input, setInput] = useState(entity?.extract ?? '');
  const [chosen, setChosen] = useState<TypeaheadResult | null>(null);
  const concepts = useConceptTypeahead(input);

  // Spec 1 §8: a failed typeahead shows its toast and an empty list.
  const { isError, errorUpdatedAt } = concepts;
  useEffect(() => {
    if (isError) {
      toast.error(TYPEAHEAD_ERROR_MESSAGE);
    }
  }, [isError, errorUpdatedAt, toast]);
  const options = concepts.isError ? EMPTY : (concepts.data ?? EMPTY);

  const onSubmit = () => {
    if (!entity) {
      return;
    }
    if (chosen === null) {
      toast.error(SELECT_CONCEPT_MESSAGE);
      return;
    }
    submit(
      'quinn.action.answer_quinn',
      normalisationAnswer(view, entity, conceptOf(chosen, crypto.randomUUID())),
    );
  };
  const raise = () => sendException(job, view, submit);
  const panelRef = useRef<HTMLElement>(null);
  useSubmitShortcut(() => (busy ? undefined : onSubmit()), panelRef);

  return (
    <Box ref={panelRef} component="section" aria-label="Job" aria-busy={busy}>
      <Typography variant="h5" component="h2">
        {NORMALISE_HEADING}
      </Typography>
      {view.text ? (
        <Typography sx={{ color: 'text.secondary', my: 1 }}>{view.text}</Typography>
      ) : null}
      {entity ? (
        <>
          <Typography sx={{ my: 2 }}>
            Entity: <strong>{entity.extract}</strong>
            {entity.category ? ` (${categoryName(entity.category)})` : ''}
          </Typography>
          <Autocomplete<TypeaheadResult>
            disablePortal
            options={options}
            value={chosen}
            inputValue={input}
            onInputChange={(_event, value, reason) => {
              // Mounting with no concept chosen resets the input to ''; keep the extract instead.
              if (reason === 'reset' && value === '' && chosen === null) {
                return;
              }
              setInput(value);
            }}
            onChange={(_event, value) => setChosen(value)}
            // Leaving the field (to press Submit) keeps what was typed.
            clearOnBlur={false}
            filterOptions={(all) => all}
            getOptionLabel={(option) => option.canonicalName}
            getOptionKey={(option) => option.conceptId}
            isOptionEqualToValue={(option, value) => option.conceptId === value.conceptId}
            loading={concepts.isFetching}
            noOptionsText={
              input.trim().length < 3 ? 'Type 3 or more characters' : 'No concepts found'
            }
            renderOption={(props, option) => {
              const { key, ...rest } = props;
              return (
                <li key={key} {...rest}>
                  {option.canonicalName}
                  {option.name !== option.canonicalName ? ` (${option.name})` : ''} ·{' '}
                  {option.conceptId}
                </li>
              );
            }}
            // A new job takes the keyboard at once (keyboard-first).
            renderInput={(params) => (
              <TextField {...params} label={CONCEPT_FIELD_LABEL} autoFocus />
            )}
          />
        </>
      ) : (
        <Typography role="alert">{NO_ENTITY_MESSAGE}</Typography>
      )}
      <Stack direction="row" sx={{ mt: 3, gap: 2 }}>
        <ExceptionButton onRaise={raise} disabled={busy} label={exceptionLabelOf(job, view)} />
        {entity ? (
          <Button variant="contained" onClick={onSubmit} disabled={busy}>
            Submit
          </Button>
        ) : null}
      </Stack>
    </Box>
  );
}
