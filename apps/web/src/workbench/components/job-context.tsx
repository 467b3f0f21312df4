import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { readMessageJob } from '@loopdesk/workbench/job-data.ts';
import { useId, useMemo, useState } from 'react';
import type { TechnicianJob } from '../../lib/socket/use-technician-session.ts';
import { useJobContext } from '../api/get-job-context.ts';

/** What verify-answered asks of the technician (issue 20 "verify-answered says what to do"). */
export const VERIFY_ANSWERED_INSTRUCTION =
  "Does the patient's message answer the last question? If it does, Submit (Ctrl+Enter); if it does not, raise an Exception.";
export const EARLIER_TURNS_LABEL = 'Earlier in the conversation';
export const LAST_QUESTION_MARK = 'Last question';

const OPEN_KEY = 'loopdesk.jobContext.open';

function storedOpen(): boolean {
  try {
    return window.localStorage.getItem(OPEN_KEY) !== 'false';
  } catch {
    return true;
  }
}

/** The job's id for its context: `data.jobId`. */
const jobIdOf = (job: TechnicianJob): string => job.data.jobId;

/** The patient's first name of a held job, or null (for the panels that name the patient). */
export function usePatientName(job: TechnicianJob): string | null {
  return useJobContext(jobIdOf(job))?.patient?.firstName ?? null;
}

/**
 * Above every job panel (issue 20 "Context"): who the patient is (first name), the earlier turns of
 * the conversation (collapsible, the technician's choice kept from job to job) with the last
 * question marked, and, for verify-answered, what to do.
 */
export function JobContextHeader({ job }: { job: TechnicianJob }) {
  const context = useJobContext(jobIdOf(job));
  const purpose = useMemo(() => readMessageJob(job.data).purpose, [job.data]);
  const [open, setOpen] = useState(storedOpen);
  const turnsId = useId();
  const toggle = () => {
    setOpen((was) => {
      try {
        window.localStorage.setItem(OPEN_KEY, String(!was));
      } catch {
        // No storage: the choice lasts for this page.
      }
      return !was;
    });
  };
  const turns = context?.turns ?? [];
  // The last question: the newest turn the assistant sent.
  const lastQuestionAt = turns.map((t) => t.direction).lastIndexOf('OUT');
  const patient = context?.patient?.firstName;
  if (!patient && turns.length === 0 && purpose !== 'verify-answered') {
    return null;
  }
  return (
    <Box component="aside" aria-label="Context" sx={{ mb: 2 }}>
      {patient ? (
        <Typography sx={{ color: 'text.secondary' }}>
          Patient:{' '}
          <Box component="strong" sx={{ color: 'text.primary' }}>
            {patient}
          </Box>
        </Typography>
      ) : null}
      {turns.length > 0 ? (
        <>
          <Button
            size="small"
            aria-expanded={open}
            aria-controls={turnsId}
            onClick={toggle}
            sx={{ px: 0 }}
          >
            {open ? 'Hide' : 'Show'} {EARLIER_TURNS_LABEL.toLowerCase()} ({turns.length})
          </Button>
          <Collapse in={open}>
            <Stack
              id={turnsId}
              component="ol"
              aria-label={EARLIER_TURNS_LABEL}
              sx={{ listStyle: 'none', p: 0, m: 0, gap: 0.5, maxHeight: 240, overflow: 'auto' }}
            >
              {turns.map((turn, index) => (
                <Box
                  component="li"
                  key={`${turn.createdOn}-${String(index)}`}
                  aria-current={index === lastQuestionAt ? 'true' : undefined}
                  sx={{
                    pl: 1,
                    borderLeft: 3,
                    borderColor: index === lastQuestionAt ? 'warning.main' : 'divider',
                  }}
                >
                  <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                    {turn.direction === 'IN' ? (patient ?? 'Patient') : 'Assistant'}
                  </Typography>
                  {index === lastQuestionAt ? (
                    <Chip size="small" color="warning" label={LAST_QUESTION_MARK} sx={{ ml: 1 }} />
                  ) : null}
                  <Typography variant="body2">{turn.content}</Typography>
                </Box>
              ))}
            </Stack>
          </Collapse>
        </>
      ) : null}
      {purpose === 'verify-answered' ? (
        <Typography role="note" sx={{ mt: 1 }}>
          {VERIFY_ANSWERED_INSTRUCTION}
        </Typography>
      ) : null}
    </Box>
  );
}
