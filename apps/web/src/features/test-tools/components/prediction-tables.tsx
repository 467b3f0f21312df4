import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { DiagnosisPrediction } from '@loopdesk/contracts/intelligence.ts';
import { useId, useState, type ReactNode } from 'react';
import { formatScore } from '../utils/format.ts';

/** How many conditions the prediction shows before "Show all (n)" (issue 20 #26). */
export const TOP_CONDITIONS = 10;

type Condition = DiagnosisPrediction['inference'][number];

/**
 * The acuities marked next to a condition, in words (issue 20 #26), in colours whose text keeps a
 * 4.5:1 contrast (the theme's error and warning fills do not with their text).
 */
const ACUITY_MARK: Partial<
  Record<NonNullable<Condition['acuity']>, { label: string; bg: string; fg: string }>
> = {
  emergent: { label: 'Emergent', bg: '#b71c1c', fg: '#fff' },
  urgent: { label: 'Urgent', bg: '#ffb74d', fg: '#000' },
};

/** Conditions with at least one associated observation (spec 3 §2), the likeliest first. */
export function rankedConditions(prediction: DiagnosisPrediction): Condition[] {
  return prediction.inference
    .filter((entry) => entry.associatedObservations.length > 0)
    .sort((a, b) => b.probability - a.probability);
}

/** A score to 2 decimals (spec 3 §9) with a bar of its size, so the eye compares rows at once. */
function ScoreCell({ name, value }: { name: string; value: number }) {
  const text = formatScore(value);
  return (
    <TableCell aria-label={`${name} ${text}`}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 140 }}>
        <Typography variant="body2" component="span" sx={{ fontVariantNumeric: 'tabular-nums' }}>
          {text}
        </Typography>
        <LinearProgress
          variant="determinate"
          value={Math.max(0, Math.min(1, value)) * 100}
          aria-label={`${name} ${text}`}
          sx={{ flex: 1, height: 8, borderRadius: 1 }}
        />
      </Box>
    </TableCell>
  );
}

function TitledTable({
  title,
  columns,
  children,
}: {
  title: string;
  columns: readonly string[];
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography id={id} variant="h6" component="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <TableContainer>
        <Table size="small" aria-labelledby={id}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column}>{column}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>{children}</TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}

function EmptyRow({ columns, text }: { columns: number; text: string }) {
  return (
    <TableRow>
      <TableCell colSpan={columns}>
        <Typography variant="body2" color="text.secondary">
          {text}
        </Typography>
      </TableCell>
    </TableRow>
  );
}

/**
 * The two result tables of the differential (spec 3 §2): the prediction, listing only conditions
 * with at least one associated observation, the likeliest first and the top 10 until "Show all
 * (n)", emergent and urgent conditions marked; and the differentiating observations. Probability
 * and relevance to 2 decimals (spec 3 §9), each with a bar.
 */
export function PredictionTables({ prediction }: { prediction: DiagnosisPrediction }) {
  const [showAll, setShowAll] = useState(false);
  const conditions = rankedConditions(prediction);
  const shown = showAll ? conditions : conditions.slice(0, TOP_CONDITIONS);
  return (
    <Stack spacing={2}>
      {prediction.unknownObservations.length > 0 ? (
        <Alert severity="info">
          Not known to the knowledge base: {prediction.unknownObservations.join(', ')}
        </Alert>
      ) : null}
      <TitledTable
        title="Differential Diagnosis Prediction"
        columns={['Condition', 'Likelihood', 'Associated Observations']}
      >
        {conditions.length === 0 ? (
          <EmptyRow columns={3} text="No condition matches these observations." />
        ) : (
          shown.map((entry) => {
            const mark = entry.acuity ? ACUITY_MARK[entry.acuity] : undefined;
            return (
              <TableRow key={entry.conditionId}>
                <TableCell>
                  {entry.condition}
                  {mark ? (
                    <>
                      {' '}
                      <Chip
                        size="small"
                        label={mark.label}
                        sx={{ ml: 0.5, fontWeight: 600, bgcolor: mark.bg, color: mark.fg }}
                      />
                    </>
                  ) : null}
                </TableCell>
                <ScoreCell name="Likelihood" value={entry.probability} />
                <TableCell>
                  {entry.associatedObservations.map((item) => item.observation).join(', ')}
                </TableCell>
              </TableRow>
            );
          })
        )}
      </TitledTable>
      {conditions.length > TOP_CONDITIONS ? (
        <Box>
          <Button onClick={() => setShowAll((all) => !all)}>
            {showAll ? `Show the top ${TOP_CONDITIONS}` : `Show all (${conditions.length})`}
          </Button>
        </Box>
      ) : null}
      <TitledTable title="Differentiating Observations" columns={['Observation', 'Relevance']}>
        {prediction.differentiatingObservations.length === 0 ? (
          <EmptyRow columns={2} text="No observation to ask about." />
        ) : (
          prediction.differentiatingObservations.map((entry) => (
            <TableRow key={entry.observationId}>
              <TableCell>{entry.observation}</TableCell>
              <ScoreCell name="Relevance" value={entry.relevance} />
            </TableRow>
          ))
        )}
      </TitledTable>
    </Stack>
  );
}
