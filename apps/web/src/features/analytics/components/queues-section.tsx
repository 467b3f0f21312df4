import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { AnalyticsFigures } from '@loopdesk/contracts/analytics.ts';
import type { CsvColumn } from '../utils/csv.ts';
import { depthSeries, duration, hourlySeries } from '../utils/series.ts';
import { ChartCard } from './chart-card.tsx';
import { SimpleTable } from './simple-table.tsx';

type Depth = AnalyticsFigures['queues']['depth'][number];
type Oldest = AnalyticsFigures['queues']['oldest'][number];
type Hourly = ReturnType<typeof hourlySeries>[number];

const DEPTH: CsvColumn<Depth>[] = [
  { label: 'Hour (UTC)', value: (r) => r.hour },
  { label: 'Queue', value: (r) => r.queue },
  { label: 'Open jobs', value: (r) => r.open },
];
const HOURLY: CsvColumn<Hourly>[] = [
  { label: 'Hour (UTC)', value: (r) => r.hour.toISOString() },
  { label: 'Arrivals', value: (r) => r.arrivals },
  { label: 'Completions', value: (r) => r.completions },
];
const OLDEST: CsvColumn<Oldest>[] = [
  { label: 'Queue', value: (r) => r.queue },
  { label: 'Waiting', value: (r) => r.waiting },
  { label: 'Oldest queued at', value: (r) => r.oldestQueuedAt },
  { label: 'Waited', value: (r) => duration(r.ageSeconds) },
];

const hourLabel = (value: Date) =>
  value.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit' });

/** Queues: open jobs over time, arrivals and completions per hour, the oldest waiting job. */
export function QueuesSection({ figures }: { figures: AnalyticsFigures }) {
  const range = figures.filters;
  const depth = depthSeries(figures);
  const hourly = hourlySeries(figures);
  return (
    <>
      <ChartCard
        title="Open jobs per queue"
        description="Jobs created and not yet completed, cancelled or dead, at the end of each hour."
        rows={figures.queues.depth}
        columns={DEPTH}
        range={range}
      >
        <LineChart
          height={260}
          skipAnimation
          xAxis={[{ data: depth.hours, scaleType: 'time', valueFormatter: hourLabel }]}
          series={[...depth.queues].map(([queue, data]) => ({
            id: queue,
            label: queue,
            data,
            curve: 'stepAfter' as const,
            showMark: false,
          }))}
        />
      </ChartCard>
      <ChartCard
        title="Arrivals and completions per hour"
        description="Jobs created, and jobs answered by a technician, in each hour (UTC)."
        rows={figures.queues.hourly.length ? hourly : []}
        columns={HOURLY}
        range={range}
      >
        <BarChart
          height={260}
          skipAnimation
          dataset={hourly.map((h) => ({ ...h, label: hourLabel(h.hour) }))}
          xAxis={[{ scaleType: 'band', dataKey: 'label' }]}
          series={[
            { dataKey: 'arrivals', label: 'Arrivals' },
            { dataKey: 'completions', label: 'Completions' },
          ]}
        />
      </ChartCard>
      <ChartCard
        title="Oldest waiting job"
        description="Now, whatever the date range: jobs waiting in each queue and how long the oldest has waited."
        rows={figures.queues.oldest}
        columns={OLDEST}
        range={range}
      >
        <SimpleTable rows={figures.queues.oldest} columns={OLDEST} rowKey={(r) => r.queue} />
      </ChartCard>
    </>
  );
}
