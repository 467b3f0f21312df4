import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  CLASSIFICATION_SYSTEMS,
  type ConceptOption,
  type DataPreparationJob,
} from '@loopdesk/contracts/data-preparation.ts';
import { TYPEAHEAD_MIN_CHARS } from '@loopdesk/contracts/intelligence.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** The form's fields (spec 2 §2), as typed. */
export interface FormValues {
  displayName: string;
  source: string;
  publishedDate: string;
  pageNumber: string;
  concept: { name: string; cui: string } | null;
  icd10: string;
  containsImages: boolean;
  containsTables: boolean;
  text: string;
}

const codeOf = (job: DataPreparationJob, system: string) =>
  job.classification.find((c) => c.system === system);

/** The form as the job says. */
export function formOf(job: DataPreparationJob): FormValues {
  const umls = codeOf(job, CLASSIFICATION_SYSTEMS.umls);
  const provenance = job.provenance[0];
  return {
    displayName: job.displayName,
    source: provenance?.source ?? job.source ?? '',
    publishedDate: provenance?.publishedDate ?? '',
    pageNumber: provenance?.pageNumber ?? '',
    concept: umls ? { name: umls.display, cui: umls.code } : null,
    icd10: codeOf(job, CLASSIFICATION_SYSTEMS.icd10)?.code ?? '',
    containsImages: job.containsImages,
    containsTables: job.containsTables,
    text: job.preparedText ?? '',
  };
}

/** The job with the form's values (the decisions of issue 11: provenance[0], classification). */
export function jobWith(job: DataPreparationJob, form: FormValues): DataPreparationJob {
  const name = form.concept?.name ?? '';
  return {
    ...job,
    displayName: form.displayName.trim(),
    source: form.source.trim(),
    provenance: [
      {
        source: form.source.trim(),
        publishedDate: form.publishedDate || null,
        pageNumber: form.pageNumber.trim() || null,
      },
    ],
    classification: [
      ...(form.concept
        ? [{ system: CLASSIFICATION_SYSTEMS.umls, code: form.concept.cui, display: name }]
        : []),
      ...(form.icd10.trim()
        ? [{ system: CLASSIFICATION_SYSTEMS.icd10, code: form.icd10.trim(), display: name }]
        : []),
    ],
    containsImages: form.containsImages,
    containsTables: form.containsTables,
    preparedText: form.text,
  };
}

/** Spec 2 §5: 'Document name, document source and CUI are required.' */
export const REQUIRED_MESSAGE = 'Document name, document source and CUI are required.';
export const isComplete = (form: FormValues) =>
  form.displayName.trim() !== '' && form.source.trim() !== '' && form.concept !== null;

/** The Concept autocomplete: `query/umls_view?q=` from 3 characters (spec 2 §5, §7). */
function ConceptField({
  value,
  onChange,
}: {
  value: FormValues['concept'];
  onChange: (option: ConceptOption | null) => void;
}) {
  const [text, setText] = useState(value?.name ?? '');
  const q = text.trim();
  const options = useQuery({
    queryKey: ['data-preparation', 'concepts', q],
    queryFn: ({ signal }) =>
      callRoute('GET', '/internal/data-preparation/query/:view', {
        params: { view: 'umls_view' },
        query: { q },
        signal,
      }),
    enabled: q.length >= TYPEAHEAD_MIN_CHARS,
    staleTime: 60_000,
  });
  return (
    <Autocomplete<ConceptOption>
      options={options.data?.results ?? []}
      filterOptions={(all) => all}
      getOptionLabel={(option) => option.name}
      getOptionKey={(option) => option.conceptId}
      isOptionEqualToValue={(a, b) => a.conceptId === b.conceptId}
      value={null}
      inputValue={text}
      onInputChange={(_event, next) => setText(next)}
      onChange={(_event, option) => onChange(option)}
      noOptionsText={
        q.length < TYPEAHEAD_MIN_CHARS
          ? `Type ${TYPEAHEAD_MIN_CHARS} or more characters`
          : 'No concept found'
      }
      renderInput={(params) => <TextField {...params} label="Concept" />}
    />
  );
}

interface JobFormProps {
  form: FormValues;
  onChange: (form: FormValues) => void;
  review: boolean;
  busy: boolean;
  onReject: () => void;
  onReset: () => void;
  onSubmit: () => void;
}

/** The right half of the job view (spec 2 §2): the form and its three buttons. */
export function JobForm({
  form,
  onChange,
  review,
  busy,
  onReject,
  onReset,
  onSubmit,
}: JobFormProps) {
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) =>
    onChange({ ...form, [key]: value });
  return (
    <Stack
      component="form"
      spacing={2}
      aria-label="Document metadata"
      // The spec's message says what is missing, not the browser's bubble.
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <TextField
        label="Document Name"
        required
        value={form.displayName}
        onChange={(e) => set('displayName', e.target.value)}
      />
      <TextField
        label="Document Source"
        required
        value={form.source}
        onChange={(e) => set('source', e.target.value)}
      />
      <Stack direction="row" spacing={2}>
        <TextField
          label="Published Date"
          type="date"
          value={form.publishedDate}
          onChange={(e) => set('publishedDate', e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ flex: 1 }}
        />
        <TextField
          label="Page Numbers"
          value={form.pageNumber}
          onChange={(e) => set('pageNumber', e.target.value)}
          sx={{ flex: 1 }}
        />
      </Stack>
      <ConceptField
        value={form.concept}
        onChange={(option) =>
          option &&
          onChange({
            ...form,
            concept: {
              name: option.name,
              cui: option.sources.find((s) => s.system === 'UMLS')?.code ?? option.conceptId,
            },
            icd10:
              option.sources.find((s) => s.system === 'ICD10CM' || s.system === 'ICD-10')?.code ??
              form.icd10,
          })
        }
      />
      <Stack direction="row" spacing={2}>
        <TextField
          label="CUI"
          required
          value={form.concept?.cui ?? ''}
          slotProps={{ htmlInput: { readOnly: true } }}
          helperText={form.concept ? form.concept.name : 'Set by the concept'}
          sx={{ flex: 1 }}
        />
        <TextField
          label="ICD10"
          value={form.icd10}
          onChange={(e) => set('icd10', e.target.value)}
          sx={{ flex: 1 }}
        />
      </Stack>
      <Box>
        <FormControlLabel
          control={
            <Checkbox
              checked={form.containsImages}
              onChange={(e) => set('containsImages', e.target.checked)}
            />
          }
          label="Document contains images"
        />
        <FormControlLabel
          control={
            <Checkbox
              checked={form.containsTables}
              onChange={(e) => set('containsTables', e.target.checked)}
            />
          }
          label="Document contains tables"
        />
      </Box>
      <TextField
        label={review ? 'Extracted Text' : 'Prepared Text'}
        multiline
        rows={25}
        value={form.text}
        onChange={(e) => set('text', e.target.value)}
      />
      <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
        <Button color="error" onClick={onReject} disabled={busy}>
          REJECT DOCUMENT
        </Button>
        <Button onClick={onReset} disabled={busy}>
          RESET
        </Button>
        <Button type="submit" variant="contained" disabled={busy}>
          {review ? 'APPROVE' : 'SUBMIT'}
        </Button>
      </Stack>
    </Stack>
  );
}
