import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import { PATHS } from '@loopdesk/contracts/portal-routes.ts';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { JobToasts } from '../../../components/job-toasts.tsx';
import { TaskHeader } from '../../../components/task-header.tsx';
import { useToast, type Toast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import {
  conflictOf,
  recogniseEntities,
  useReleaseOnLeave,
  useSaveDraft,
  useSubmitAnnotations,
  useTakenJob,
  type AuthoringJob,
} from '../api/authoring.ts';
import { AnnotationWorkspace } from '../components/annotation-workspace.tsx';
import {
  CHIP_COLOURS,
  CHIP_TEXT,
  EMPTY_ANNOTATIONS,
  LEGEND,
  MESSAGES,
  automatedEntities,
  canSubmit,
  draftRestorable,
  draftSet,
  removeAutomated,
  reset,
  stateFromSet,
  submittedSet,
  type AnnotationState,
} from '../model/annotations.ts';

/** The screen's state when a job opens (spec 2 §4: a draft only when the portal wrote it). */
export function initialAnnotations(job: AuthoringJob): AnnotationState {
  if (job.annotationsDraft && (job.draftRestorable || draftRestorable(job.annotationsDraft))) {
    return stateFromSet(job.preparedText, job.annotationsDraft, 'manual');
  }
  return EMPTY_ANNOTATIONS;
}

/** The legend chips (spec 2 §2 "Legend chips: Automated, Manual, Annotated"). */
export function Legend() {
  return (
    <Stack direction="row" spacing={1} aria-label="Legend" role="list">
      {LEGEND.map(({ state, label }) => (
        <Chip
          key={state}
          role="listitem"
          label={label}
          size="small"
          sx={{ backgroundColor: CHIP_COLOURS[state], color: CHIP_TEXT[state] }}
        />
      ))}
    </Stack>
  );
}

/** The statuses a copy can still be saved over (a newer draft, an approved document). */
const ANNOTATABLE: readonly AuthoringJob['status'][] = ['DOCUMENT_APPROVED', 'ANNOTATED_DRAFT'];

interface Conflict {
  message: string;
  /** The version the document has now, when it could be read. */
  version: number | null;
}

function AnnotationTask({ job, notify }: { job: AuthoringJob; notify: Toast }) {
  const navigate = useNavigate();
  const toast = useToast();
  const [value, setValue] = useState<AnnotationState>(() => initialAnnotations(job));
  const [automatic, setAutomatic] = useState(() =>
    value.entities.some((e) => e.state === 'automated'),
  );
  const [recognising, setRecognising] = useState(false);
  const [version, setVersion] = useState(job.version);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const draft = useSaveDraft(job.key);
  const submit = useSubmitAnnotations(job.key);
  const finished = useRef(false);
  const busy = draft.isPending || submit.isPending;

  useReleaseOnLeave(job.key, finished);

  const toggleRecognition = (checked: boolean) => {
    if (!checked) {
      setAutomatic(false);
      setValue((current) => removeAutomated(current));
      return;
    }
    setAutomatic(true);
    setRecognising(true);
    recogniseEntities(job.preparedText).then(
      (result) => {
        setRecognising(false);
        setValue((current) =>
          current.entities.length > 0
            ? current
            : { ...current, entities: automatedEntities(job.preparedText, result) },
        );
      },
      () => {
        // Spec 2 §8: the message, and the busy indicator clears.
        setRecognising(false);
        setAutomatic(false);
        toast.error(MESSAGES.recognitionFailed);
      },
    );
  };

  const onFailure = (error: unknown) => {
    const refusal = conflictOf(error);
    if (!refusal) {
      toast.error(errorMessage(error));
      return;
    }
    // Spec: nothing is lost on a conflict. The answer carries the job as it is now: say what
    // happened, and offer to keep this copy when the job can still be annotated by this user.
    const { current, holder } = refusal;
    const who = holder?.email ?? holder?.userId;
    setConflict({
      message: [
        refusal.message,
        who ? `It is held by ${who}.` : '',
        current ? `It is now ${current.jobType ?? current.status}.` : '',
      ]
        .filter(Boolean)
        .join(' '),
      version: current && !holder && ANNOTATABLE.includes(current.status) ? current.version : null,
    });
  };

  const done = (message: string) => {
    finished.current = true;
    // Not tied to the job: it stays while the list opens.
    notify.success(message);
    void navigate(PATHS['authoring-tasks']);
  };

  const source = () => window.location.href;
  const saveDraft = () =>
    draft.mutate(
      { version, annotations: draftSet(value, source()) },
      { onSuccess: () => done(MESSAGES.drafted), onError: onFailure },
    );
  const submitDocument = () => {
    if (!canSubmit(value)) {
      toast.error(MESSAGES.incomplete);
      return;
    }
    submit.mutate(
      { version, annotations: submittedSet(value, source()) },
      { onSuccess: () => done(MESSAGES.submitted), onError: onFailure },
    );
  };

  const draftLabel = job.status === 'ANNOTATED_DRAFT' ? 'Annotation DRAFT' : 'Annotation';
  const returned = job.review?.outcome === 'returned' ? job.review : null;
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Stack direction={{ md: 'row' }} spacing={2} sx={{ alignItems: { md: 'flex-end' } }}>
        <Box sx={{ flexGrow: 1 }}>
          <TaskHeader
            back={{ to: PATHS['authoring-tasks'], label: 'Authoring Tasks' }}
            trail={[draftLabel]}
            title={job.displayName}
            subtitle={job.source ?? undefined}
            instruction="Mark the medical entities in the text, link each to its concept, then submit the document for review."
          />
        </Box>
        <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
          <Button
            variant="outlined"
            disabled={busy}
            onClick={() => {
              setValue(reset());
              setAutomatic(false);
            }}
          >
            RESET ANNOTATIONS
          </Button>
          <Button variant="outlined" disabled={busy} onClick={saveDraft}>
            SAVE AS DRAFT
          </Button>
          <Button variant="contained" disabled={busy} onClick={submitDocument}>
            SUBMIT DOCUMENT
          </Button>
        </Stack>
      </Stack>
      {returned ? (
        <Alert severity="warning">
          {`Returned by ${returned.reviewer.email ?? returned.reviewer.userId}: ${returned.comment ?? ''}`}
        </Alert>
      ) : null}
      {conflict ? (
        <Alert
          severity="error"
          role="alert"
          action={
            conflict.version !== null ? (
              <Button
                color="inherit"
                size="small"
                onClick={() => {
                  setVersion(conflict.version ?? version);
                  setConflict(null);
                }}
              >
                Keep mine
              </Button>
            ) : undefined
          }
        >
          {`${conflict.message} Your annotations are still on this screen; nothing was saved.${
            conflict.version !== null
              ? ' Keep mine to save them over the newer version with your next save.'
              : ''
          }`}
        </Alert>
      ) : null}
      <AnnotationWorkspace
        text={job.preparedText}
        documentConcept={job.documentConcept}
        value={value}
        onChange={setValue}
        toolbar={
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
            <FormControlLabel
              control={
                <Checkbox
                  checked={automatic}
                  disabled={
                    recognising ||
                    (value.entities.length > 0 &&
                      !(automatic && value.entities.some((e) => e.state === 'automated')))
                  }
                  onChange={(event) => toggleRecognition(event.target.checked)}
                />
              }
              label="Apply automated named entity recognition"
            />
            {recognising ? <CircularProgress size={20} aria-label="Recognising entities" /> : null}
            <Legend />
          </Stack>
        }
      />
    </Stack>
  );
}

/** /jobs/authoring-tasks/:id: the Annotation Task screen of one document (spec 2 §2). */
export function AnnotationTaskRoute() {
  usePageTitle('Annotation Task');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const toast = useToast();
  const job = useTakenJob(id);
  useEffect(() => {
    if (job.isError) {
      // Spec 2 §8 "Job select error: HTTP error toast and return to the list".
      toast.error(errorMessage(job.error));
      void navigate(PATHS['authoring-tasks']);
    }
  }, [job.isError, job.error, toast, navigate]);
  if (!job.data) {
    return <CircularProgress aria-label="Loading the job" sx={{ m: 2 }} />;
  }
  return (
    <JobToasts job={job.data.key}>
      <AnnotationTask key={job.data.key} job={job.data} notify={toast} />
    </JobToasts>
  );
}
