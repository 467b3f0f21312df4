import { BarChart } from '@mui/x-charts/BarChart';
import type { AnalyticsFigures } from '@loopdesk/contracts/analytics.ts';
import type { CsvColumn } from '../utils/csv.ts';
import { duration } from '../utils/series.ts';
import { ChartCard } from './chart-card.tsx';

type Times = AnalyticsFigures['times'][number];
type Measure = 'wait' | 'handle' | 'total';

const MEASURES: { key: Measure; title: string; description: string }[] = [
  {
    key: 'wait',
    title: 'Wait per job type',
    description: 'From the job’s arrival to its first delivery to a technician (seconds).',
  },
  {
    key: 'handle',
    title: 'Handle time per job type',
    description: 'From the delivery to the technician who answered to their answer (seconds).',
  },
  {
    key: 'total',
    title: 'End to end per job type',
    description: 'From the job’s arrival to its answer (seconds).',
  },
];

const columns = (key: Measure): CsvColumn<Times>[] => [
  { label: 'Job type', value: (r) => r.type },
  { label: 'Jobs', value: (r) => r[key].count },
  { label: 'p50 (s)', value: (r) => r[key].p50 },
  { label: 'p90 (s)', value: (r) => r[key].p90 },
  { label: 'p99 (s)', value: (r) => r[key].p99 },
];

/** Time per job type: wait, handle and end to end, p50/p90/p99. */
export function TimesSection({ figures }: { figures: AnalyticsFigures }) {
  return (
    <>
      {MEASURES.map((measure) => {
        const rows = figures.times.filter((t) => t[measure.key].count > 0);
        return (
          <ChartCard
            key={measure.key}
            title={measure.title}
            description={measure.description}
            rows={rows}
            columns={columns(measure.key)}
            range={figures.filters}
          >
            <BarChart
              height={240}
              skipAnimation
              dataset={rows.map((r) => ({ type: r.type, ...r[measure.key] }))}
              xAxis={[{ scaleType: 'band', dataKey: 'type' }]}
              yAxis={[{ label: 'seconds' }]}
              series={(['p50', 'p90', 'p99'] as const).map((p) => ({
                dataKey: p,
                label: p,
                valueFormatter: (value: number | null) => duration(value),
              }))}
            />
          </ChartCard>
        );
      })}
    </>
  );
}
