import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import { PATHS } from '@loopdesk/contracts/portal-routes.ts';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { TaskHeader } from '../../../components/task-header.tsx';
import { useToast, type Toast } from '../../../components/toast-context.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { TakenJob } from '../components/taken-job.tsx';
import {
  recogniseEntities,
  useReleaseOnLeave,
  useSaveDraft,
  useSubmitAnnotations,
  type AuthoringJob,
} from '../api/authoring.ts';
import { AnnotationWorkspace } from '../components/annotation-workspace.tsx';
import { ConflictAlert, SaveBar } from '../components/save-bar.tsx';
import { useSaveFailure } from '../hooks/use-save-failure.ts';
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

function AnnotationTask({ job, notify }: { job: AuthoringJob; notify: Toast }) {
  const navigate = useNavigate();
  const toast = useToast();
  const [value, setValue] = useState<AnnotationState>(() => initialAnnotations(job));
  const [automatic, setAutomatic] = useState(() =>
    value.entities.some((e) => e.state === 'automated'),
  );
  const [recognising, setRecognising] = useState(false);
  const [version, setVersion] = useState(job.version);
  const { conflict, onFailure, clear } = useSaveFailure('annotation');
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
        <SaveBar
          busy={busy}
          actions={[
            {
              label: 'RESET ANNOTATIONS',
              onClick: () => {
                setValue(reset());
                setAutomatic(false);
              },
            },
            { label: 'SAVE AS DRAFT', onClick: saveDraft },
            { label: 'SUBMIT DOCUMENT', onClick: submitDocument, primary: true },
          ]}
        />
      </Stack>
      {returned ? (
        <Alert severity="warning">
          {`Returned by ${returned.reviewer.email ?? returned.reviewer.userId}: ${returned.comment ?? ''}`}
        </Alert>
      ) : null}
      {conflict ? (
        <ConflictAlert
          conflict={conflict}
          what="annotations"
          onKeepMine={(newer) => {
            setVersion(newer);
            clear();
          }}
        />
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
  return <TakenJob Screen={AnnotationTask} />;
}
