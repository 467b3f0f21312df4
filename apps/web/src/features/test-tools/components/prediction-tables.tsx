import Alert from '@mui/material/Alert';
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
import { useId, type ReactNode } from 'react';
import { formatScore } from '../utils/format.ts';

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
 * with at least one associated observation, and the differentiating observations; probability and
 * relevance to 2 decimals (spec 3 §9).
 */
export function PredictionTables({ prediction }: { prediction: DiagnosisPrediction }) {
  const conditions = prediction.inference.filter(
    (entry) => entry.associatedObservations.length > 0,
  );
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
          conditions.map((entry) => (
            <TableRow key={entry.conditionId}>
              <TableCell>{entry.condition}</TableCell>
              <TableCell>{formatScore(entry.probability)}</TableCell>
              <TableCell>
                {entry.associatedObservations.map((item) => item.observation).join(', ')}
              </TableCell>
            </TableRow>
          ))
        )}
      </TitledTable>
      <TitledTable title="Differentiating Observations" columns={['Observation', 'Relevance']}>
        {prediction.differentiatingObservations.length === 0 ? (
          <EmptyRow columns={2} text="No observation to ask about." />
        ) : (
          prediction.differentiatingObservations.map((entry) => (
            <TableRow key={entry.observationId}>
              <TableCell>{entry.observation}</TableCell>
              <TableCell>{formatScore(entry.relevance)}</TableCell>
            </TableRow>
          ))
        )}
      </TitledTable>
    </Stack>
  );
}
