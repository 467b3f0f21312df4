import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { DiagnosisPrediction } from '@loopdesk/contracts/intelligence.ts';
import type { EntityExtractionResult } from '@loopdesk/contracts/nlp.ts';
import { useState } from 'react';
import { useToast } from '../../../components/toast-context.ts';
import { usePredictDifferential } from '../api/post-differential-diagnosis.ts';
import { useEvaluateText } from '../api/post-evaluate.ts';
import { EVALUATION_ERROR, failureMessage, PREDICTION_ERROR } from '../utils/messages.ts';
import { PredictionTables } from './prediction-tables.tsx';

/** Spec 3 §9: rows of the clinical inference box. */
export const CLINICAL_TEXT_ROWS = 5;

interface SelectedObservation {
  id: string;
  display: string;
  /** The patient denies it ("no cough"): shown as such and sent with presence 'deny'. */
  denied: boolean;
}

/** One observation per display name, the first kept (spec 3 §2). */
export function uniqueByDisplay<T extends { display: string }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.display) && Boolean(seen.add(item.display)));
}

/**
 * The observations offered to the differential: the endorsed ones the server lists
 * (`normalisedObservations`, spec 3 §2), then the denied ones (issue 20 #26: "No cough" is
 * evidence against a condition, not nothing), about the patient and now, as the server picks the
 * endorsed ones; one per display name.
 */
export function observationsOf(result: EntityExtractionResult): SelectedObservation[] {
  const denied = result.observations
    .filter((item) => item.presence === 'deny' && !item.context.family && !item.context.historical)
    .map((item) => ({ id: item.id, display: item.display, denied: true }));
  return uniqueByDisplay([
    ...result.resolved.normalisedObservations.map((item) => ({ ...item, denied: false })),
    ...denied,
  ]);
}

/** The chip's words: the observation, or "No {observation}" when denied. */
const chipLabel = (item: SelectedObservation) =>
  item.denied ? `No ${item.display}` : item.display;

/**
 * `/test/clinical-inference` (spec 3 §2, §4): a text whose recognised observations become
 * deletable chips, then PREDICT with their display names (no weights) and the prediction tables.
 */
export function ClinicalInferenceScreen() {
  const toast = useToast();
  const evaluate = useEvaluateText();
  const predict = usePredictDifferential();
  const [text, setText] = useState('');
  const [selected, setSelected] = useState<SelectedObservation[]>([]);
  const [evaluated, setEvaluated] = useState(false);
  const [prediction, setPrediction] = useState<DiagnosisPrediction | null>(null);

  const submit = () => {
    // A new text starts over: its own observations, and no prediction of the last text's.
    setSelected([]);
    setPrediction(null);
    evaluate.mutate(text, {
      onSuccess: (answer) => {
        setSelected(observationsOf(answer));
        setEvaluated(true);
      },
      onError: (error) => toast.error(failureMessage(error, EVALUATION_ERROR)),
    });
  };

  const onPredict = () => {
    setPrediction(null);
    predict.mutate(
      selected.map((item) =>
        item.denied
          ? { observation: item.display, presence: 'deny' as const }
          : { observation: item.display },
      ),
      {
        onSuccess: (answer) => setPrediction(answer),
        onError: (error) => toast.error(failureMessage(error, PREDICTION_ERROR)),
      },
    );
  };

  const busy = evaluate.isPending || predict.isPending;
  return (
    <Stack spacing={2} sx={{ maxWidth: 960 }}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <TextField
          label="Input Text"
          placeholder="Enter text here"
          multiline
          rows={CLINICAL_TEXT_ROWS}
          fullWidth
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
          <Button variant="contained" onClick={submit} disabled={evaluate.isPending}>
            SUBMIT TEXT
          </Button>
        </Box>
      </Paper>
      {busy ? (
        <LinearProgress aria-label={evaluate.isPending ? 'Recognising' : 'Predicting'} />
      ) : null}
      {evaluated || selected.length > 0 ? (
        <Paper
          variant="outlined"
          sx={{ p: 2 }}
          component="section"
          aria-labelledby="ci-observations"
        >
          <Typography id="ci-observations" variant="h6" component="h2" sx={{ mb: 1 }}>
            Observations
          </Typography>
          {selected.length === 0 ? (
            <Typography color="text.secondary">No observations recognised.</Typography>
          ) : (
            <Box
              component="ul"
              aria-label="Selected observations"
              sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', p: 0, m: 0 }}
            >
              {selected.map((item) => (
                <li key={item.display}>
                  <Chip
                    label={chipLabel(item)}
                    color={item.denied ? 'default' : 'secondary'}
                    variant={item.denied ? 'outlined' : 'filled'}
                    onDelete={() =>
                      setSelected((current) =>
                        current.filter((other) => other.display !== item.display),
                      )
                    }
                  />
                </li>
              ))}
            </Box>
          )}
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
            <Button
              variant="contained"
              onClick={onPredict}
              disabled={selected.length === 0 || predict.isPending}
            >
              PREDICT
            </Button>
          </Box>
        </Paper>
      ) : null}
      {prediction ? <PredictionTables prediction={prediction} /> : null}
    </Stack>
  );
}
