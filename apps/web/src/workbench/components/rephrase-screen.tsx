import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { validateRephrase } from '@loopdesk/workbench/validation.ts';
import { useState } from 'react';
import { useToast } from '../../components/toast-context.ts';
import { DigitRadioGroup } from './digit-radio-group.tsx';
import { ExceptionButton } from './exception-button.tsx';
import { useStepGuard } from '../hooks/use-step-guard.ts';

/** Spec 1 §2 "Rephrase screen". */
export const REPHRASE_HEADING = 'Rephrase previous question.';

export interface RephraseScreenProps {
  readonly options: readonly string[];
  readonly busy: boolean;
  /** Back to the annotation (spec 1 §4 "The rephrase back button returns to annotation"). */
  readonly onBack: () => void;
  readonly onRephrase: (question: string) => void;
  readonly onException: () => void;
}

/**
 * The rephrase screen of the exception flow (spec 1 §4): one of the options is asked instead.
 * Digits 1-9 pick the options; Ctrl+Enter within 500 ms of the screen appearing, or by key
 * repeat, is ignored (issue 20).
 */
export function RephraseScreen({
  options,
  busy,
  onBack,
  onRephrase,
  onException,
}: RephraseScreenProps) {
  const toast = useToast();
  const [chosen, setChosen] = useState<string | null>(null);
  const accepts = useStepGuard();
  const submit = () => {
    const error = validateRephrase(chosen);
    if (error !== null || chosen === null) {
      toast.error(error ?? '');
      return;
    }
    onRephrase(chosen);
  };
  return (
    <Box
      component="section"
      aria-label="Rephrase"
      onKeyDown={(event) => {
        if ((event.ctrlKey || event.metaKey) && event.key === 'Enter' && !busy) {
          event.preventDefault();
          if (accepts(event)) {
            submit();
          }
        }
      }}
    >
      <Typography variant="h5" component="h2" id="rephrase-heading" sx={{ mb: 1 }}>
        {REPHRASE_HEADING}
      </Typography>
      <DigitRadioGroup
        labelledBy="rephrase-heading"
        options={options.map((option) => ({ value: option, label: option }))}
        value={chosen}
        onChange={setChosen}
        enabled={!busy}
      />
      <Stack direction="row" sx={{ mt: 3, gap: 2 }}>
        <Button onClick={onBack} disabled={busy}>
          Back
        </Button>
        <ExceptionButton onRaise={onException} disabled={busy} />
        <Button variant="contained" onClick={submit} disabled={busy}>
          Submit
        </Button>
      </Stack>
    </Box>
  );
}
