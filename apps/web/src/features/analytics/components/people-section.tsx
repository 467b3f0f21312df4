import type { AnalyticsFigures } from '@loopdesk/contracts/analytics.ts';
import type { CsvColumn } from '../utils/csv.ts';
import { duration } from '../utils/series.ts';
import { ChartCard } from './chart-card.tsx';
import { SimpleTable } from './simple-table.tsx';

type Person = NonNullable<AnalyticsFigures['people']>[number];

const PEOPLE: CsvColumn<Person>[] = [
  { label: 'Technician', value: (r) => r.name },
  { label: 'Jobs answered', value: (r) => r.jobs },
  { label: 'Active hours', value: (r) => r.activeHours },
  { label: 'Jobs per active hour', value: (r) => r.jobsPerHour },
  { label: 'Handle p50', value: (r) => duration(r.handle.p50) },
  { label: 'Handle p90', value: (r) => duration(r.handle.p90) },
  { label: 'Exceptions', value: (r) => r.exceptions },
  { label: 'Exception rate', value: (r) => `${Math.round(r.exceptionRate * 1000) / 10}%` },
];

/** Per technician, for holders of analytics:people:view only (the server sends null otherwise). */
export function PeopleSection({
  people,
  range,
}: {
  people: readonly Person[];
  range: AnalyticsFigures['filters'];
}) {
  return (
    <ChartCard
      title="Per technician"
      description="Per technician: jobs answered, per active hour (an hour in which they answered at least one), handle time and exception rate."
      rows={people}
      columns={PEOPLE}
      range={range}
    >
      <SimpleTable rows={people} columns={PEOPLE} rowKey={(r) => r.userId} />
    </ChartCard>
  );
}
