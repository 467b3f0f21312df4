import { BarChart } from '@mui/x-charts/BarChart';
import type { AnalyticsFigures } from '@loopdesk/contracts/analytics.ts';
import type { CsvColumn } from '../utils/csv.ts';
import { duration } from '../utils/series.ts';
import { ChartCard } from './chart-card.tsx';
import { SimpleTable } from './simple-table.tsx';

type Outcome = AnalyticsFigures['outcomes'][number];
type Discard = AnalyticsFigures['discards'][number];
interface DeskRow {
  readonly measure: string;
  readonly count: number;
  readonly p50: number | null;
  readonly p90: number | null;
  readonly p99: number | null;
}

const DESK: CsvColumn<DeskRow>[] = [
  { label: 'Measure', value: (r) => r.measure },
  { label: 'Count', value: (r) => r.count },
  { label: 'p50 (s)', value: (r) => r.p50 },
  { label: 'p90 (s)', value: (r) => r.p90 },
  { label: 'p99 (s)', value: (r) => r.p99 },
];
const OUTCOMES: CsvColumn<Outcome>[] = [
  { label: 'Job type', value: (r) => r.type },
  { label: 'Completed', value: (r) => r.completed },
  { label: 'Exceptions', value: (r) => r.exceptions },
  { label: 'Cancelled', value: (r) => r.cancelled },
  { label: 'Dead', value: (r) => r.dead },
  { label: 'Requeues after a dropped technician', value: (r) => r.requeues },
];
const DISCARDS: CsvColumn<Discard>[] = [
  { label: 'Pipeline/step', value: (r) => r.type },
  { label: 'Discards', value: (r) => r.discards },
  { label: 'With a note', value: (r) => r.withNotes },
];

/** The exception desk: handover to first human reply, time with a human, handbacks vs ends. */
export function DeskSection({ figures }: { figures: AnalyticsFigures }) {
  const desk = figures.desk;
  const rows: DeskRow[] = [
    { measure: 'Handover → first human reply', ...desk.firstReply },
    { measure: 'Time with a human', ...desk.withHuman },
    { measure: 'Handbacks', count: desk.handbacks, p50: null, p90: null, p99: null },
    { measure: 'Ends', count: desk.ends, p50: null, p90: null, p99: null },
    { measure: 'Still with the desk', count: desk.open, p50: null, p90: null, p99: null },
  ];
  return (
    <ChartCard
      title="Exception desk"
      description={`${desk.handovers} ${desk.handovers === 1 ? 'handover' : 'handovers'} to humans in the range: how soon a human answered, how long they kept the conversation, and how it left them.`}
      rows={desk.handovers ? rows : []}
      columns={DESK}
      range={figures.filters}
    >
      <BarChart
        height={220}
        skipAnimation
        layout="horizontal"
        dataset={rows.slice(0, 2).map((r) => ({ ...r }))}
        yAxis={[{ scaleType: 'band', dataKey: 'measure', width: 200 }]}
        series={(['p50', 'p90', 'p99'] as const).map((p) => ({
          dataKey: p,
          label: p,
          valueFormatter: (value: number | null) => duration(value),
        }))}
      />
      <SimpleTable rows={rows.slice(2)} columns={DESK.slice(0, 2)} rowKey={(r) => r.measure} />
    </ChartCard>
  );
}

/** Outcomes per job type, and the async tasks discarded with their notes counted. */
export function OutcomesSection({ figures }: { figures: AnalyticsFigures }) {
  return (
    <>
      <ChartCard
        title="Outcomes per job type"
        description="Jobs that arrived in the range: answered, answered as exceptions, cancelled, dead-lettered, and returned to their queue when a technician dropped."
        rows={figures.outcomes}
        columns={OUTCOMES}
        range={figures.filters}
      >
        <BarChart
          height={260}
          skipAnimation
          dataset={figures.outcomes.map((o) => ({ ...o }))}
          xAxis={[{ scaleType: 'band', dataKey: 'type' }]}
          series={[
            { dataKey: 'completed', label: 'Completed' },
            { dataKey: 'exceptions', label: 'Exceptions' },
            { dataKey: 'cancelled', label: 'Cancelled' },
            { dataKey: 'dead', label: 'Dead' },
            { dataKey: 'requeues', label: 'Requeues' },
          ]}
        />
      </ChartCard>
      <ChartCard
        title="Discarded async tasks"
        description="Async tasks discarded per pipeline step and how many carried a note (counts only, never the note)."
        rows={figures.discards}
        columns={DISCARDS}
        range={figures.filters}
      >
        <SimpleTable rows={figures.discards} columns={DISCARDS} rowKey={(r) => r.type} />
      </ChartCard>
    </>
  );
}
