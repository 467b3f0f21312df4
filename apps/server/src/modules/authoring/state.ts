// What a stored row says: its live holder, its text, its sets (read leniently), a refused set.
import {
  CLASSIFICATION_SYSTEMS,
  AnnotationSet,
  type DataPreparationJob,
  type DataPreparationStatus,
} from '@loopdesk/contracts/data-preparation.ts';
import {
  AUTHORING_MESSAGES,
  type AnnotationReview,
  DraftSet,
} from '@loopdesk/contracts/routes/authoring.ts';
import { type AppError, badRequest } from '../../platform/errors.ts';
import type { Detail } from './annotations.ts';
import type { AuthoringRow } from './repository.ts';

export const ANNOTATABLE: readonly DataPreparationStatus[] = [
  'DOCUMENT_APPROVED',
  'ANNOTATED_DRAFT',
];

export const liveHolder = (row: AuthoringRow): string | null =>
  row.lease_holder !== null &&
  row.lease_expires_at !== null &&
  row.lease_expires_at.getTime() > Date.now()
    ? row.lease_holder
    : null;

export const sourceOf = (job: DataPreparationJob): string | null =>
  job.source ?? job.provenance.find((p) => p.source.trim())?.source ?? null;

export const umlsOf = (job: DataPreparationJob) =>
  job.classification.find((c) => c.system === CLASSIFICATION_SYSTEMS.umls) ?? null;

export const textOf = (row: AuthoringRow): string => row.job.preparedText ?? row.extracted_text;

// A stored set that does not have the shape (written before these calls existed) reads as none
// rather than failing the whole job.
export const draftOf = (job: DataPreparationJob): DraftSet | null => {
  const parsed = DraftSet.safeParse(job.annotationsDraft);
  return parsed.success ? parsed.data : null;
};
export const annotationsOf = (job: DataPreparationJob): AnnotationSet | null => {
  const parsed = AnnotationSet.safeParse(job.annotations);
  return parsed.success ? parsed.data : null;
};
export const reviewOf = (job: DataPreparationJob): AnnotationReview | null =>
  (job as { annotationReview?: AnnotationReview | null }).annotationReview ?? null;

export function badSet(check: { problems: Detail[]; incomplete: Detail[] }): AppError | null {
  if (check.problems.length > 0) {
    const details = [...check.problems, ...check.incomplete];
    return badRequest(
      `The annotations cannot be saved: ${check.problems
        .slice(0, 5)
        .map((d) => `${d.path} ${d.message}`)
        .join(
          '; ',
        )}${check.problems.length > 5 ? ` (and ${check.problems.length - 5} more)` : ''}.`,
      details,
    );
  }
  if (check.incomplete.length > 0) {
    return badRequest(AUTHORING_MESSAGES.incomplete, check.incomplete);
  }
  return null;
}
