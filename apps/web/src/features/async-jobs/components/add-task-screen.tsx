import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  JOB_TYPE_PREFIX,
  NEW_TASK_JOB_CLASS,
  NEW_TASK_VERSION,
  type AddTaskBody,
} from '@loopdesk/contracts/async-jobs.ts';
import { TYPEAHEAD_MIN_CHARS } from '@loopdesk/contracts/intelligence.ts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { useAddTask } from '../api/add-task.ts';
import { usePipelines } from '../api/get-pipelines.ts';
import { useConditionSearch, type ConditionResult } from '../api/search-conditions.ts';
import { useLoadError } from '../hooks/use-load-error.ts';
import { DASHBOARD_PATH, STILL_PROCESSING } from '../utils/messages.ts';
import { addedMessage } from '../utils/outcomes.ts';

/** The condition of a new job: one of the KB (with its concept id) or typed, new to the KB. */
export interface ConditionChoice {
  name: string;
  conceptId: string | null;
}

/** The new task payload of spec 3 §3 for a pipeline's type. */
export function newTaskBody(
  type: string,
  condition: ConditionChoice,
  reference: string,
  notes: string,
  now = new Date(),
): AddTaskBody {
  return {
    data: {
      condition: condition.name.trim(),
      reference: reference.trim(),
      notes: notes.trim(),
      cui: condition.conceptId,
    },
    createdOn: now.toISOString(),
    jobType: `${JOB_TYPE_PREFIX}${type}`,
    jobClass: NEW_TASK_JOB_CLASS,
    metadata: {},
    state: 'REGISTERED',
    version: NEW_TASK_VERSION,
    changeLog: [],
  };
}

/**
 * `/jobs/async/pipelines/{id}/_add_task`: a new condition job (spec 3 §2), for a pipeline whose
 * served definition has an input form (3 and 4); its title and task type are the server's.
 */
export function AddTaskScreen({ pipelineId }: { pipelineId: string }) {
  const toast = useToast();
  const navigate = useNavigate();
  const add = useAddTask();
  const [chosen, setChosen] = useState<ConditionResult | null>(null);
  const [conditionText, setConditionText] = useState('');
  const [reference, setReference] = useState('');
  const [notes, setNotes] = useState('');
  const conditions = useConditionSearch(chosen ? '' : conditionText);
  useLoadError(conditions.isError, 'Error loading conditions');
  const pipelines = usePipelines();
  const pipeline = pipelines.data?.find((candidate) => String(candidate.id) === pipelineId);
  const form = pipeline?.definition.input?.form;

  if (pipelines.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label="Loading pipelines" />
      </Box>
    );
  }
  if (pipelines.isError) {
    return (
      <Typography role="alert" color="error" sx={{ p: 2 }}>
        {errorMessage(pipelines.error)}
      </Typography>
    );
  }
  if (!pipeline || !form) {
    return (
      <Typography sx={{ p: 2 }}>{`Pipeline ${pipelineId} does not take new jobs.`}</Typography>
    );
  }

  // A chosen condition, or typed text: a condition the knowledge base does not have yet.
  const condition: ConditionChoice | null = chosen
    ? { name: chosen.canonicalName, conceptId: chosen.conceptId }
    : conditionText.trim()
      ? { name: conditionText.trim(), conceptId: null }
      : null;
  const ready = condition !== null && reference.trim() !== '';
  const publish = () => {
    if (add.isPending) {
      toast.error(STILL_PROCESSING);
      return;
    }
    if (!condition) {
      return;
    }
    add.mutate(
      { pipelineId, body: newTaskBody(pipeline.type, condition, reference, notes) },
      {
        onSuccess: () => {
          toast.success(addedMessage(condition.name, pipeline.name));
          void navigate(DASHBOARD_PATH);
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };

  return (
    <Stack spacing={2} sx={{ p: 2, maxWidth: 720 }}>
      <Typography variant="h5" component="h2">
        {form.title}
      </Typography>
      <Autocomplete<ConditionResult, false, false, true>
        freeSolo
        options={chosen ? [chosen] : (conditions.data ?? [])}
        getOptionLabel={(option) => (typeof option === 'string' ? option : option.canonicalName)}
        getOptionKey={(option) => (typeof option === 'string' ? option : option.conceptId)}
        isOptionEqualToValue={(option, value) =>
          typeof value !== 'string' && option.conceptId === value.conceptId
        }
        filterOptions={(all) => all}
        value={chosen}
        onChange={(_event, next) => setChosen(next && typeof next !== 'string' ? next : null)}
        inputValue={conditionText}
        onInputChange={(_event, value, reason) => {
          setConditionText(value);
          if (reason === 'input' || reason === 'clear') {
            setChosen(null);
          }
        }}
        loading={conditions.isFetching}
        noOptionsText={
          conditionText.trim().length < TYPEAHEAD_MIN_CHARS
            ? `Type at least ${TYPEAHEAD_MIN_CHARS} characters`
            : 'No matching conditions'
        }
        renderInput={(params) => (
          <TextField
            {...params}
            label="Condition"
            required
            helperText={
              condition && condition.conceptId === null
                ? 'Not in the knowledge base yet: approving this job adds it as a new condition.'
                : undefined
            }
          />
        )}
      />
      <TextField
        label="Source material"
        required
        multiline
        minRows={2}
        maxRows={8}
        value={reference}
        onChange={(event) => setReference(event.target.value)}
      />
      <TextField
        label="Notes"
        multiline
        minRows={2}
        maxRows={8}
        value={notes}
        onChange={(event) => setNotes(event.target.value)}
      />
      <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={() => void navigate(DASHBOARD_PATH)}>Cancel</Button>
        <Button variant="contained" disabled={!ready || add.isPending} onClick={publish}>
          Publish
        </Button>
      </Stack>
    </Stack>
  );
}
