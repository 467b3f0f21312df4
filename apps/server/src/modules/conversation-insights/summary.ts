import type { CurrentClinicalSummary } from '@loopdesk/contracts/conversation-insights.ts';
import type { SummaryDocument } from '@loopdesk/contracts/summaries.ts';
import type { Vertex } from './projection.ts';

/**
 * What the clinical summary helper lends (COMMON.md "Shared seams"): the latest summary a
 * reviewer sent to the physician. Read only when `app.hasDecorator('summaryReview')`.
 */
export interface SummaryReviewPort {
  latestReviewed(
    tenant: string,
    conversationId: string,
  ): Promise<{ document: SummaryDocument; reviewedBy: string; completedAt: string } | null>;
}

const list = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

const withOnset = (v: Vertex) => (v.onset ? `${v.label} (${v.onset})` : v.label);

/** The heading the composed note opens with, so nobody takes it for a clinician's note. */
export const NOT_REVIEWED_NOTE =
  'Composed from the conversation memory: not reviewed by a clinician.';

/**
 * A clinical summary composed from the memory (issue 14), for a conversation no reviewer has
 * summarised yet: the patient, what they report and deny, their answers, the conditions the
 * differential considers and the handover, one section each.
 */
export function composeSummary(vertices: readonly Vertex[]): CurrentClinicalSummary {
  const of = (kind: Vertex['kind']) => vertices.filter((v) => v.kind === kind);
  const patient = of('patient')[0];
  const findings = of('finding');
  const reports = findings.filter((f) => f.presence === 'endorse').map(withOnset);
  const denies = findings.filter((f) => f.presence === 'deny').map((f) => f.label);
  const unsure = findings.filter((f) => f.presence === 'unsure').map((f) => f.label);
  const hpi = [
    reports.length ? `Reports ${list(reports)}.` : 'No finding reported yet.',
    denies.length ? `Denies ${list(denies)}.` : '',
    unsure.length ? `Unsure about ${list(unsure)}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const answers = of('answer').map((a) => a.label);
  const considered = of('condition')
    .filter((c) => c.data.considered)
    .sort((a, b) => Number(a.data.rank ?? 99) - Number(b.data.rank ?? 99))
    .map((c) =>
      typeof c.data.probability === 'number'
        ? `${c.label} (${Math.round(c.data.probability * 100)}%)`
        : c.label,
    );
  const handover = of('handover')[0];
  const sections = [
    { id: 'note', content: NOT_REVIEWED_NOTE },
    { id: 'patient', content: `Patient: ${patient?.label ?? 'unknown'}.` },
    { id: 'hpi', content: hpi },
    ...(answers.length ? [{ id: 'answers', content: `Answers: ${answers.join('; ')}.` }] : []),
    ...(considered.length
      ? [
          {
            id: 'considered',
            content: `Conditions considered (not a diagnosis): ${list(considered)}.`,
          },
        ]
      : []),
    ...(handover ? [{ id: 'handover', content: `${handover.label}.` }] : []),
  ];
  return {
    document: {
      sections: sections.map((s) => ({ ...s, annotations: [] })),
      codes: findings
        .filter((f) => f.conceptId)
        .map((f) => ({
          source: 'manual',
          code: { system: 'LD', code: f.conceptId ?? '', value: f.label },
        })),
    },
    reviewed: false,
    source: 'memory',
    reviewedBy: null,
    completedAt: null,
  };
}
