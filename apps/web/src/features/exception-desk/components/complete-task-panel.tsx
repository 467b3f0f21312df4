import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { readMessageJob } from '@loopdesk/workbench/job-data.ts';
import { buildAnnotationPayload, slotValue } from '@loopdesk/workbench/payloads.ts';
import { validateAnnotationSubmit } from '@loopdesk/workbench/validation.ts';
import { useState } from 'react';
import { useToast } from '../../../components/toast-context.ts';
import type { PanelProps } from '../../../workbench/components/panel-props.ts';

/**
 * An exception task on the 'complete' slot (spec 2 §5): it is completed only by ticking its box,
 * otherwise 'Can only complete by checking the box.'
 */
export function CompleteTaskPanel({ job, submit, busy }: PanelProps) {
  const toast = useToast();
  const [checked, setChecked] = useState(false);
  const view = readMessageJob(job.data);
  const spec = view.slotSpecification;

  const onSubmit = () => {
    if (!spec) {
      return;
    }
    const refusal = validateAnnotationSubmit({
      screen: 'exception-annotation',
      slotSpecification: spec,
      entities: [],
      completeChecked: checked,
    });
    if (refusal) {
      toast.error(refusal);
      return;
    }
    if (!view.message) {
      toast.error('This task names no message: raise it with the assistant team.');
      return;
    }
    submit(
      'message.annotation',
      buildAnnotationPayload({
        action: 'execute',
        message: view.message,
        entities: [],
        slot: { ...(view.slot ?? { code: spec.code }), type: spec.data_type ?? 'boolean' },
        value: slotValue({ slotCode: spec.code, completeChecked: checked }),
      }),
    );
  };

  return (
    <Stack sx={{ gap: 2 }} aria-label="Complete the exception" role="region">
      <Typography variant="h6">{spec?.short_description ?? 'Complete'}</Typography>
      {view.text ? <Typography>{view.text}</Typography> : null}
      <FormControlLabel
        control={
          <Checkbox checked={checked} onChange={(event) => setChecked(event.target.checked)} />
        }
        label="Complete"
      />
      <Button
        variant="contained"
        onClick={onSubmit}
        disabled={busy}
        sx={{ alignSelf: 'flex-start' }}
      >
        Submit
      </Button>
    </Stack>
  );
}
