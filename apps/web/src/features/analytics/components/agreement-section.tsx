import type { AnalyticsFigures } from '@loopdesk/contracts/analytics.ts';
import type { CsvColumn } from '../utils/csv.ts';
import { ChartCard } from './chart-card.tsx';
import { SimpleTable } from './simple-table.tsx';

type Agreement = AnalyticsFigures['agreement'];
type ByType = Agreement['byType'][number];
type ByPair = NonNullable<Agreement['byPair']>[number];
type Disagreement = Agreement['disagreements'][number];

const score = (value: number | null) => (value === null ? null : value.toFixed(2));

const BY_TYPE: CsvColumn<ByType>[] = [
  { label: 'Job type', value: (r) => r.type },
  { label: 'Samples', value: (r) => r.samples },
  { label: 'Span F1', value: (r) => score(r.f1) },
  { label: 'Spans compared', value: (r) => r.items },
  { label: 'Kappa', value: (r) => score(r.kappa) },
];

const BY_PAIR: CsvColumn<ByPair>[] = [
  { label: 'Technicians', value: (r) => `${r.first.name} & ${r.second.name}` },
  { label: 'Samples', value: (r) => r.samples },
  { label: 'Span F1', value: (r) => score(r.f1) },
  { label: 'Kappa', value: (r) => score(r.kappa) },
];

const DISAGREEMENTS: CsvColumn<Disagreement>[] = [
  { label: 'Job', value: (r) => r.jobId },
  { label: 'Second delivery', value: (r) => r.sampleJobId },
  { label: 'Job type', value: (r) => r.type },
  { label: 'Tenant', value: (r) => r.tenant },
  { label: 'Answered', value: (r) => new Date(r.answeredAt).toLocaleString() },
  {
    label: 'Spans (first / second / both)',
    value: (r) => `${r.firstSpans} / ${r.secondSpans} / ${r.matchedSpans}`,
  },
  { label: 'Categories differing', value: (r) => r.categoryDisagreements },
  { label: 'Outcome differs', value: (r) => (r.outcomeDiffers ? 'yes' : 'no') },
];

/**
 * Agreement on the sampled federated jobs (issue 16): span-level F1 and Cohen's kappa per job
 * type and (for leads) per pair of technicians, and the samples whose answers differ — by job id
 * and counts, never the answers' text.
 */
export function AgreementSection({ figures }: { figures: AnalyticsFigures }) {
  const { agreement, filters } = figures;
  return (
    <>
      <ChartCard
        title="Agreement per job type"
        description="Sampled jobs answered again, unseen, by a second technician: span-level F1 (same start, end and category) and Cohen's kappa on the spans' categories."
        rows={agreement.byType}
        columns={BY_TYPE}
        range={filters}
      >
        <SimpleTable rows={agreement.byType} columns={BY_TYPE} rowKey={(r) => r.type} />
      </ChartCard>
      {agreement.byPair ? (
        <ChartCard
          title="Agreement per pair of technicians"
          description="The same figures for each pair of technicians who answered the same sampled job."
          rows={agreement.byPair}
          columns={BY_PAIR}
          range={filters}
        >
          <SimpleTable
            rows={agreement.byPair}
            columns={BY_PAIR}
            rowKey={(r) => `${r.first.userId}/${r.second.userId}`}
          />
        </ChartCard>
      ) : null}
      <ChartCard
        title="Disagreements to review"
        description="The newest sampled jobs whose two answers differ (at most 100): job ids and counts only; the answers themselves stay with the jobs."
        rows={agreement.disagreements}
        columns={DISAGREEMENTS}
        range={filters}
      >
        <SimpleTable
          rows={agreement.disagreements}
          columns={DISAGREEMENTS}
          rowKey={(r) => r.sampleJobId}
        />
      </ChartCard>
    </>
  );
}
