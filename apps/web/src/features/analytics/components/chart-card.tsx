import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { csvFileName, downloadCsv, toCsv, type CsvColumn } from '../utils/csv.ts';

interface ChartCardProps<T> {
  readonly title: string;
  /** What the figure means, in a sentence (docs/analytics.md has the definitions). */
  readonly description: string;
  readonly rows: readonly T[];
  readonly columns: readonly CsvColumn<T>[];
  readonly range: { readonly from: string; readonly to: string };
  readonly children: ReactNode;
}

/** One chart or table with its title and its data's CSV export. */
export function ChartCard<T>({
  title,
  description,
  rows,
  columns,
  range,
  children,
}: ChartCardProps<T>) {
  return (
    <Paper component="section" aria-label={title} variant="outlined" sx={{ p: 2, minWidth: 0 }}>
      <Stack
        direction="row"
        sx={{ alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}
      >
        <div>
          <Typography variant="subtitle1" component="h3">
            {title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {description}
          </Typography>
        </div>
        <Button
          size="small"
          variant="outlined"
          aria-label={`Export CSV of ${title}`}
          onClick={() =>
            downloadCsv(csvFileName(title, range.from, range.to), toCsv(rows, columns))
          }
        >
          Export CSV
        </Button>
      </Stack>
      {rows.length === 0 ? (
        <Typography sx={{ py: 4, textAlign: 'center' }} color="text.secondary">
          No data for these filters.
        </Typography>
      ) : (
        children
      )}
    </Paper>
  );
}
