import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  MAX_OBSERVATION_WEIGHT,
  type DiagnosisPrediction,
} from '@loopdesk/contracts/intelligence.ts';
import { useState } from 'react';
import { useToast } from '../../../components/toast-context.ts';
import { usePredictDifferential } from '../api/post-differential-diagnosis.ts';
import { DEFAULT_WEIGHT, weightOf, weightProblem } from '../utils/format.ts';
import { failureMessage, PREDICTION_ERROR } from '../utils/messages.ts';
import { ObservationAutocomplete } from './observation-autocomplete.tsx';
import { PredictionTables } from './prediction-tables.tsx';

interface ObservationRow {
  key: number;
  observation: string | null;
  /** As typed; blank falls back to DEFAULT_WEIGHT when sent (spec 3 §5). */
  weight: string;
}

/**
 * `/test/differential-diagnosis` (spec 3 §2): rows of an observation and a weight, PREDICT, and
 * the prediction tables.
 */
export function DifferentialDiagnosisScreen() {
  const toast = useToast();
  const predict = usePredictDifferential();
  const [rows, setRows] = useState<ObservationRow[]>([]);
  const [nextKey, setNextKey] = useState(1);
  const [showErrors, setShowErrors] = useState(false);
  const [prediction, setPrediction] = useState<DiagnosisPrediction | null>(null);

  const update = (key: number, change: Partial<ObservationRow>) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...change } : row)));

  const addRow = () => {
    setRows((current) => [
      ...current,
      { key: nextKey, observation: null, weight: String(DEFAULT_WEIGHT) },
    ]);
    setNextKey((key) => key + 1);
  };

  const removeLastRow = () => setRows((current) => current.slice(0, -1));

  const onPredict = () => {
    if (rows.some((row) => !row.observation || weightProblem(row.weight) !== undefined)) {
      setShowErrors(true);
      return;
    }
    setShowErrors(false);
    setPrediction(null);
    predict.mutate(
      rows.map((row) => ({ observation: row.observation ?? '', weight: weightOf(row.weight) })),
      {
        onSuccess: (answer) => setPrediction(answer),
        onError: (error) => toast.error(failureMessage(error, PREDICTION_ERROR)),
      },
    );
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: 960 }}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          Observations
        </Typography>
        <Stack spacing={2} component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {rows.map((row, index) => {
            const weightError = weightProblem(row.weight);
            return (
              <Box
                component="li"
                key={row.key}
                aria-label={`Observation ${index + 1}`}
                sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap' }}
              >
                <ObservationAutocomplete
                  value={row.observation}
                  onChange={(observation) => update(row.key, { observation })}
                  error={showErrors && !row.observation ? 'Choose an observation' : undefined}
                />
                <TextField
                  label="Weight"
                  type="number"
                  value={row.weight}
                  onChange={(event) => update(row.key, { weight: event.target.value })}
                  // Shown as typed; PREDICT refuses to send it (spec 3 §5: a blank weight is 1).
                  error={weightError !== undefined}
                  helperText={weightError}
                  slotProps={{ htmlInput: { min: 0, max: MAX_OBSERVATION_WEIGHT, step: 'any' } }}
                  sx={{ width: 140 }}
                />
              </Box>
            );
          })}
        </Stack>
        {rows.length === 0 ? (
          <Typography color="text.secondary">
            Add the observations to predict a differential from.
          </Typography>
        ) : null}
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 2 }}>
          <Button variant="outlined" startIcon={<AddIcon />} onClick={addRow}>
            ADD OBSERVATION
          </Button>
          <Tooltip title="Remove the last observation">
            <span>
              <IconButton
                aria-label="Remove the last observation"
                onClick={removeLastRow}
                disabled={rows.length === 0}
              >
                <DeleteIcon />
              </IconButton>
            </span>
          </Tooltip>
          <Box sx={{ flex: 1 }} />
          <Button
            variant="contained"
            onClick={onPredict}
            disabled={rows.length === 0 || predict.isPending}
          >
            PREDICT
          </Button>
        </Box>
      </Paper>
      {predict.isPending ? <LinearProgress aria-label="Predicting" /> : null}
      {prediction ? <PredictionTables prediction={prediction} /> : null}
    </Stack>
  );
}
