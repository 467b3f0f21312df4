import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { isRewordCategory, REWORD_PROMPTS } from '@loopdesk/workbench/reword.ts';
import { useMemo, useRef, useState } from 'react';
import { useToast } from '../../components/toast-context.ts';
import { exceptionLabelOf, sendException } from '../utils/exception.ts';
import { rewordAnswer } from '../utils/job-payloads.ts';
import { selectExtract } from '../utils/select-extract.ts';
import { readMessageJob } from '@loopdesk/workbench/job-data.ts';
import { ExceptionButton } from './exception-button.tsx';
import { LastQuestion } from './last-question.tsx';
import type { PanelProps } from './panel-props.ts';
import { useSubmitShortcut } from '../hooks/use-submit-shortcut.ts';
import { REWORD_HEADING, rewordMissingMessage } from './reword-step.tsx';

/** A reword job without an entity (ours). */
export const NO_ENTITY_MESSAGE = 'This job names no entity: raise an exception instead.';

/**
 * The standalone reword job (job.purpose 'reword', spec 1 §2 "Entity reword screen"): the entity's
 * sentence reworded, sent as quinn.action.answer_quinn with action suggest_entity_reword.
 */
export function RewordPanel({ job, submit, busy }: PanelProps) {
  const toast = useToast();
  const view = useMemo(() => readMessageJob(job.data), [job.data]);
  const entity = view.entity;
  const category = entity?.category;
  const prompt =
    entity && category !== undefined && isRewordCategory(category)
      ? REWORD_PROMPTS[category](entity.extract)
      : '';
  const [text, setText] = useState(prompt);

  const raise = () => sendException(job, view, submit);
  const onSubmit = () => {
    if (!entity) {
      return;
    }
    if (text.trim() === '') {
      toast.error(rewordMissingMessage(entity.extract));
      return;
    }
    submit('quinn.action.answer_quinn', rewordAnswer(view, entity, text));
  };
  const panelRef = useRef<HTMLElement>(null);
  useSubmitShortcut(() => (busy ? undefined : onSubmit()), panelRef);

  return (
    <Box ref={panelRef} component="section" aria-label="Job" aria-busy={busy}>
      <LastQuestion question={view.lastQuestion} />
      {view.text ? <Typography sx={{ mb: 2 }}>{view.text}</Typography> : null}
      {entity ? (
        <>
          <Typography variant="h5" component="h2" id="reword-heading">
            {REWORD_HEADING} {entity.extract}
          </Typography>
          {prompt ? (
            <Typography sx={{ color: 'text.secondary', my: 1 }}>{prompt}</Typography>
          ) : null}
          <TextField
            fullWidth
            multiline
            // A new job takes the keyboard at once (keyboard-first).
            autoFocus
            sx={{ mt: 1 }}
            slotProps={{ htmlInput: { 'aria-labelledby': 'reword-heading' } }}
            value={text}
            // The patient's words are selected in the untouched prompt: typing replaces them.
            onFocus={(event) => {
              if (text === prompt) {
                selectExtract(event.target, entity.extract);
              }
            }}
            onChange={(event) => setText(event.target.value)}
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
