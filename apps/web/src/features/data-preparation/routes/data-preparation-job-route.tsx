import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { preparedFileName, type DataPreparationJob } from '@loopdesk/contracts/data-preparation.ts';
import { JobToasts } from '../../../components/job-toasts.tsx';
import { TaskHeader } from '../../../components/task-header.tsx';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { loadReference } from '../api/files.ts';
import { useJob, useSaveJob } from '../api/queue.ts';
import {
  JobForm,
  REQUIRED_MESSAGE,
  formOf,
  isComplete,
  jobWith,
  type FormValues,
} from '../components/job-form.tsx';
import { OriginalView } from '../components/original-view.tsx';
import { RejectDialog } from '../components/reject-dialog.tsx';
import { PATHS } from './paths.ts';

/** Spec 2 §8. */
export const MESSAGES = {
  submitted: 'Successfully submitted document!',
  rejected: 'Document rejected',
  rejectFailed: 'Error rejecting document',
} as const;

/** Downloads a stored prepared file (its reference url, fetched with the token). */
async function download(name: string) {
  const { url, blob } = await loadReference(name);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  if (blob) {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

function JobView({ job }: { job: DataPreparationJob }) {
  const navigate = useNavigate();
  const toast = useToast();
  const save = useSaveJob();
  const [form, setForm] = useState<FormValues>(() => formOf(job));
  const [rejecting, setRejecting] = useState(false);
  const review = job.status === 'PREPARED_FOR_REVIEW';
  const open = review || job.status === 'REGISTERED';
  const fileName = job.extraction?.fileName ?? job.displayName;
  const title = `${review ? 'Data Preparation Review' : 'Data Preparation Job'}: ${fileName}`;
  usePageTitle(review ? 'Data Preparation Review' : 'Data Preparation Job');
  const backToList = () => void navigate(PATHS['data-preparation']);

  const submit = () => {
    if (!isComplete(form)) {
      toast.error(REQUIRED_MESSAGE, { job: job.key });
      return;
    }
    save.mutate(
      {
        job: {
          ...jobWith(job, form),
          status: review ? 'DOCUMENT_APPROVED' : 'PREPARED_FOR_REVIEW',
        },
        fileName: preparedFileName(job.code, review),
      },
      {
        onSuccess: () => {
          toast.success(MESSAGES.submitted);
          backToList();
        },
        onError: (error) => toast.error(errorMessage(error), { job: job.key }),
      },
    );
  };

  const reject = (comment: string) => {
    setRejecting(false);
    save.mutate(
      { job: { ...jobWith(job, form), status: 'REJECTED', rejectionComment: comment } },
      {
        onSuccess: () => {
          toast.success(MESSAGES.rejected);
          backToList();
        },
        onError: () => toast.error(MESSAGES.rejectFailed, { job: job.key }),
      },
    );
  };

  const prepared = job.references.filter((r) => r.reference.endsWith('.txt'));
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <TaskHeader
        back={{ to: PATHS['data-preparation'], label: 'Data Preparation Jobs' }}
        trail={[review ? 'Document Preparation Review' : 'Preparation']}
        title={title}
        instruction={
          review
            ? 'Check the metadata and the text against the original, then approve or reject it.'
            : 'Fill in the metadata, choose the concept and correct the text, then submit it for review.'
        }
      />
      {!open && (
        <Alert severity="info">
          {job.status === 'REJECTED'
            ? `This document was rejected: ${job.rejectionComment ?? ''}`
            : `This document is ${job.status === 'DOCUMENT_APPROVED' ? 'approved' : 'in annotation'}; it is annotated in Authoring Tasks.`}
        </Alert>
      )}
      {prepared.length > 0 && (
        <Stack direction="row" spacing={1}>
          {prepared.map((reference) => (
            <Button
              key={reference.reference}
              variant="outlined"
              onClick={() =>
                void download(reference.reference).catch((error: unknown) =>
                  toast.error(errorMessage(error)),
                )
              }
            >
              Download {reference.reference}
            </Button>
          ))}
        </Stack>
      )}
      <Box sx={{ display: 'grid', gridTemplateColumns: { md: '1fr 1fr' }, gap: 2 }}>
        <OriginalView job={job} />
        {open ? (
          <JobForm
            form={form}
            onChange={setForm}
            review={review}
            busy={save.isPending}
            onReject={() => setRejecting(true)}
            onReset={() => setForm(formOf(job))}
            onSubmit={submit}
          />
        ) : null}
      </Box>
      <RejectDialog open={rejecting} onCancel={() => setRejecting(false)} onReject={reject} />
    </Stack>
  );
}

/** /jobs/data-preparation/:id: one job, prepared or reviewed (spec 2 §2). */
export function DataPreparationJobRoute() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const toast = useToast();
  const job = useJob(id);
  useEffect(() => {
    if (job.isError) {
      // Spec 2 §8 "Job select error: HTTP error toast and return to the list".
      toast.error(errorMessage(job.error));
      void navigate(PATHS['data-preparation']);
    }
  }, [job.isError, job.error, toast, navigate]);
  if (!job.data) {
    return <CircularProgress aria-label="Loading the job" sx={{ m: 2 }} />;
  }
  return (
    <JobToasts job={job.data.key}>
      <JobView key={job.data.key} job={job.data} />
    </JobToasts>
  );
}
