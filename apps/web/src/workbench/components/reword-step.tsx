import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { RewordTarget } from '@loopdesk/workbench/reword.ts';
import { useState } from 'react';
import { useToast } from '../../components/toast-context.ts';
import type { Rewording } from '@loopdesk/contracts/workbench-payloads.ts';
import { rewordingsOf } from '../utils/job-payloads.ts';
import { selectExtract } from '../utils/select-extract.ts';
import { useStepGuard } from '../hooks/use-step-guard.ts';

/** Spec 1 §2 "Reword screen". */
export const REWORD_HEADING = 'Reword sentence for';
/** A reword left blank (ours: the spec gives no message). */
export const rewordMissingMessage = (extract: string): string =>
  `Enter the reworded sentence for ${extract}.`;

export interface RewordStepProps {
  readonly targets: readonly RewordTarget[];
  readonly busy: boolean;
  readonly onBack: () => void;
  readonly onSubmit: (rewordings: Rewording[]) => void;
}

/**
 * The reword step before the real submit (spec 1 §4 "Reword"): one field per target, starting
 * with the target's prompt, which the technician rewords for the patient. A field taking the focus
 * with its prompt untouched selects the patient's extract in it, so that typing replaces it; a
 * Ctrl+Enter within 500 ms of the step appearing, or by key repeat, is ignored (issue 20: no
 * reword is sent unread).
 */
export function RewordStep({ targets, busy, onBack, onSubmit }: RewordStepProps) {
  const toast = useToast();
  const accepts = useStepGuard();
  const [texts, setTexts] = useState<string[]>(() => targets.map((t) => t.prompt));
  const submit = () => {
    const blank = targets.find((_, index) => (texts[index] ?? '').trim() === '');
    if (blank) {
      toast.error(rewordMissingMessage(blank.entity.extract));
      return;
    }
    onSubmit(rewordingsOf(targets, texts));
  };
  return (
    <Box
      component="section"
      aria-label="Reword"
      onKeyDown={(event) => {
        // Ctrl+Enter submits from the fields too (spec 1 keyboard-first).
        if ((event.ctrlKey || event.metaKey) && event.key === 'Enter' && !busy) {
          event.preventDefault();
          if (accepts(event)) {
            submit();
          }
        }
      }}
    >
      {targets.map((target, index) => {
        const id = `reword-${index}`;
        return (
          <Box
            key={`${target.category}:${target.entity.start}:${target.entity.end}`}
            sx={{ mb: 3 }}
          >
            <Typography variant="h6" component="h3" id={`${id}-heading`}>
              {REWORD_HEADING} {target.entity.extract}
            </Typography>
            <Typography sx={{ color: 'text.secondary', mb: 1 }}>{target.prompt}</Typography>
            <TextField
              fullWidth
              multiline
              autoFocus={index === 0}
              slotProps={{ htmlInput: { 'aria-labelledby': `${id}-heading` } }}
              value={texts[index] ?? ''}
              onFocus={(event) => {
                if (texts[index] === target.prompt) {
                  selectExtract(event.target, target.entity.extract);
                }
              }}
              onChange={(event) =>
                setTexts((current) =>
                  current.map((value, i) => (i === index ? event.target.value : value)),
                )
              }
            />
          </Box>
        );
      })}
      <Stack direction="row" sx={{ gap: 2 }}>
        <Button onClick={onBack} disabled={busy}>
          Back
        </Button>
        <Button variant="contained" onClick={submit} disabled={busy}>
          Submit
        </Button>
      </Stack>
    </Box>
  );
}
