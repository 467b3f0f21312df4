/**
 * Authoring tasks and document annotation (spec 2 §2 "Authoring Tasks screen", "Annotation Task
 * screen", §3, §4, §5 "Document annotation", §7 "Authoring document side", §8, §9; issue 13).
 * States, calls and the review design: docs/authoring.md.
 *
 * The calls, for the web screen (every `:id` is the document's `key`):
 *
 * - `GET  /internal/authoring/jobs` — the 'Authoring Tasks' table: one row per document in
 *   PREPARED_FOR_REVIEW, DOCUMENT_APPROVED, ANNOTATED_DRAFT or ANNOTATED_FOR_REVIEW, with
 *   Document Name (`displayName`), Document Source (`source`) and Job Type (`jobType`, derived
 *   from the status, spec 2 §4) and who holds it now. `?jobType=annotation,annotation draft`
 *   narrows it. A 'preparation review' row opens the data preparation review screen (its
 *   `/internal/data-preparation/metadata/{key}`), the others the Annotation Task screen.
 * - `GET  /internal/authoring/jobs/:id` — one job for the Annotation Task screen: the prepared
 *   text, the submitted `annotations`, the `annotationsDraft` and whether the screen restores it
 *   (`draftRestorable`: its provenance system is 'decoded-portal'; the server sends the draft
 *   either way, the screen decides), the document's concept (its UMLS CUI from data
 *   preparation), who holds it, who annotated it, the last review, and `version` (send it back
 *   with every save: a save against an older version is refused with 409 and the current job).
 *   Reading does not take the job.
 * - `POST /internal/authoring/jobs/:id/_take` — hold the job (a lease of JOB_LEASE_SECONDS,
 *   renewed by taking again): to annotate (DOCUMENT_APPROVED, ANNOTATED_DRAFT;
 *   `jobs:annotation:perform`) or to review (ANNOTATED_FOR_REVIEW; `jobs:annotation:review`, and
 *   never the document's annotator: 403, four eyes). Someone else's live hold: 409 naming them.
 *   Call it when the screen opens a job; saves also refuse while someone else holds it.
 * - `POST /internal/authoring/jobs/:id/_release` — let go of the job without saving (leaving
 *   the screen); a job the caller does not hold is left as it is.
 * - `POST /internal/authoring/jobs/:id/draft` — SAVE AS DRAFT: `{version, annotations}` (entities
 *   may be unfinished, each with its `state`); status → ANNOTATED_DRAFT, `annotationsDraft` set,
 *   hold released. Toast 'Successfully saved document as DRAFT'.
 * - `POST /internal/authoring/jobs/:id/submit` — SUBMIT DOCUMENT: `{version, annotations}`; every
 *   entity complete (category and CUI, state 'annotated' when sent) else 400 'Please complete or
 *   remove incomplete annotations before submitting.'; status → ANNOTATED_FOR_REVIEW,
 *   `annotations` set (the data part only), draft removed, hold released. Toast 'Successfully
 *   submitted document!'.
 * - `POST /internal/authoring/jobs/:id/review` — the review of a submitted document (not in the
 *   spec): a decision (accept / change / reject) for every entity and relationship, then
 *   `outcome` 'approve' (status → ANNOTATION_APPROVED; what is accepted or changed is written to
 *   the knowledge base as a new version, `review.kbRevision`) or 'return' with a `comment`
 *   (status → ANNOTATED_DRAFT, the reviewed set as the draft).
 *
 * Every refusal is `{error, message, details?}` (details name each field: `body.annotations.
 * entities.3.CUI`…); a version conflict or someone else's hold adds `current` (the job as it is
 * now, so the screen keeps its own copy and shows what changed) and `holder`.
 *
 * Not here, reused as they are:
 * - 'Apply automated named entity recognition': `POST /internal/nlp/entities?resolve=true` with
 *   `{text}` (routes/nlp.ts; answers the Automated recognition result of spec 2 §3; the
 *   versioned Accept header `NLP_CONTENT_TYPE` of intelligence.ts is optional). An entity's
 *   `concepts[].coding.code` is a knowledge-base concept id, accepted as an entity's `CUI`.
 * - The concept picker (3+ characters): `GET /internal/data-preparation/query/umls_view?q=`
 *   (routes/data-preparation.ts: Concept options with `conceptId`, `types` and
 *   `sources [{system: 'UMLS', code}]`), or `POST /internal/intelligence/ontology/concepts/_search`
 *   (routes/intelligence.ts). Set `CUI` to the UMLS code from `sources` when there is one, else to
 *   the `conceptId`: the server accepts either and refuses anything the knowledge base lacks.
 * - After approval, the relationship shows in the knowledge-graph inspector:
 *   `GET /internal/intelligence/ontology/models/conditions/{conceptId}/_subgraph` (the document
 *   concept's `conceptId`).
 */
import { z } from 'zod';
import { any, NoBody, type ApiRoute } from './api-route.ts';
import {
  AnnotationProvenance,
  AnnotationSet,
  DataPreparationStatus,
  DocumentIdParams,
  DOCUMENT_ENTITY_CATEGORIES,
  DocumentEntityCategory,
  PORTAL_SYSTEM,
  RelationshipRow,
} from '../data-preparation.ts';
import { ErrorBody, errorResponses } from '../errors.ts';

export { DOCUMENT_ENTITY_CATEGORIES, DocumentEntityCategory, PORTAL_SYSTEM, RelationshipRow };

/** The 16 categories of the entity form (spec 2 §5), shared by screen and server. */
export const AUTHORING_CATEGORIES = DOCUMENT_ENTITY_CATEGORIES;

/** Job types of the 'Authoring Tasks' table (spec 2 §2, §4). */
export const AUTHORING_JOB_TYPES = [
  'preparation review',
  'annotation',
  'annotation draft',
  'annotation review',
] as const;
export const AuthoringJobType = z.enum(AUTHORING_JOB_TYPES, {
  message: `must be one of ${AUTHORING_JOB_TYPES.join(', ')}`,
});
export type AuthoringJobType = z.infer<typeof AuthoringJobType>;

/** Spec 2 §4 "Authoring job status mapping": the status each job type is derived from. */
export const JOB_TYPE_OF_STATUS = {
  PREPARED_FOR_REVIEW: 'preparation review',
  DOCUMENT_APPROVED: 'annotation',
  ANNOTATED_DRAFT: 'annotation draft',
  ANNOTATED_FOR_REVIEW: 'annotation review',
} as const satisfies Partial<Record<DataPreparationStatus, AuthoringJobType>>;

/** The statuses the authoring list shows. */
export const AUTHORING_LIST_STATUSES = Object.keys(
  JOB_TYPE_OF_STATUS,
) as (keyof typeof JOB_TYPE_OF_STATUS)[];

/** The job type of a status, or null for a status the authoring list does not show. */
export function jobTypeOf(status: DataPreparationStatus): AuthoringJobType | null {
  return (
    (JOB_TYPE_OF_STATUS as Partial<Record<DataPreparationStatus, AuthoringJobType>>)[status] ?? null
  );
}

/** Annotation entity states (spec 2 §4) and the chip colours (spec 2 §9). */
export const ENTITY_STATES = ['automated', 'manual', 'annotated'] as const;
export const EntityState = z.enum(ENTITY_STATES, {
  message: `must be one of ${ENTITY_STATES.join(', ')}`,
});
export type EntityState = z.infer<typeof EntityState>;
export const ENTITY_STATE_COLOURS = {
  automated: '#6200EE',
  manual: '#BB86FC',
  annotated: '#03DAC6',
} as const satisfies Record<EntityState, string>;

/** The messages of spec 2 §5 and §8 the annotation screen and server say. */
export const AUTHORING_MESSAGES = {
  incomplete: 'Please complete or remove incomplete annotations before submitting.',
  overlap: 'Unable to annotate entity that already exists.',
  draftSaved: 'Successfully saved document as DRAFT',
  submitted: 'Successfully submitted document!',
  recognitionFailed: 'Error applying automated entity recognition.',
  conceptsFailed: 'Error loading normalised concepts',
  deleteConfirm: 'Are you sure you want to delete this annotation?',
} as const;

const text = (max: number) => z.string().max(max, { message: `must be at most ${max} characters` });
const offset = z
  .number({ message: 'must be a character offset (a whole number, 0 or more)' })
  .int({ message: 'must be a character offset (a whole number, 0 or more)' })
  .min(0, { message: 'must be a character offset (a whole number, 0 or more)' });

/**
 * An entity as the screen sends it (spec 2 §3 "Entity on the document screen": the data part,
 * flat, with its `state`). In a draft anything but the span may be unfinished; a submission
 * needs category and CUI (the server says 'Please complete or remove…' otherwise). `CUI` is the
 * concept's UMLS CUI, or its knowledge-base id when it has none; it must be in the knowledge base.
 */
export const AnnotatedEntity = z.looseObject({
  id: z.uuid({ message: 'must be the entity’s uuid' }),
  start: offset,
  end: offset,
  extract: z.string().min(1, { message: 'must not be empty' }),
  category: DocumentEntityCategory.nullish(),
  preferredText: text(500).nullish(),
  conceptName: text(500).nullish(),
  CUI: text(100).nullish(),
  TUI: z
    .array(z.object({ tui: text(100), description: text(500) }))
    .max(50)
    .default([]),
  notes: text(10_000).nullish(),
  state: EntityState.optional().describe('automated, manual or annotated (spec 2 §4)'),
});
export type AnnotatedEntity = z.infer<typeof AnnotatedEntity>;

/** Relationship row as sent (spec 2 §3): `id` = the entity id, `weight` free text. */
export const AnnotatedRelationship = z.object({
  id: z.string().min(1).describe('equal to the entity id'),
  entity: z.string().describe('the entity’s extract'),
  category: z.string().min(1).describe('the category, formatted (one of the 16)'),
  weight: text(100).default('').describe('free text, initially empty'),
});
export type AnnotatedRelationship = z.infer<typeof AnnotatedRelationship>;

/** An annotation set as sent by SAVE AS DRAFT and SUBMIT DOCUMENT (spec 2 §3 "Annotation set"). */
export const AnnotationSetInput = z.object({
  entities: z.array(AnnotatedEntity).max(20_000),
  relationships: z.array(AnnotatedRelationship).max(20_000).default([]),
  provenance: AnnotationProvenance.describe(
    `{source: the page address, createdOn: now (ISO), system: '${PORTAL_SYSTEM}'}`,
  ),
});
export type AnnotationSetInput = z.input<typeof AnnotationSetInput>;

/** A stored draft (spec 2 §4 "stores annotationsDraft"): entities as the screen sent them. */
export const DraftSet = z.object({
  entities: z.array(AnnotatedEntity),
  relationships: z.array(AnnotatedRelationship),
  provenance: AnnotationProvenance,
});
export type DraftSet = z.infer<typeof DraftSet>;

/** A person in a job: who holds it, who annotated or reviewed it. */
export const AuthoringPerson = z.object({
  userId: z.string(),
  email: z.string().nullable(),
});
export type AuthoringPerson = z.infer<typeof AuthoringPerson>;

/** Who holds a job now, for what, until when. */
export const AuthoringHolder = AuthoringPerson.extend({
  purpose: z.enum(['annotation', 'review']),
  until: z.iso.datetime({ offset: true }),
});
export type AuthoringHolder = z.infer<typeof AuthoringHolder>;

/** The document's concept: the UMLS CUI data preparation gave it, and the KB concept it is. */
export const DocumentConcept = z.object({
  cui: z.string(),
  display: z.string(),
  /** The knowledge-base concept (null when the KB does not hold that CUI). */
  conceptId: z.string().nullable(),
  class: z.string().nullable(),
});
export type DocumentConcept = z.infer<typeof DocumentConcept>;

/** A reviewer's decision on an entity or a relationship. */
export const REVIEW_DECISIONS = ['accept', 'change', 'reject'] as const;
export const ReviewDecision = z.enum(REVIEW_DECISIONS, {
  message: `must be one of ${REVIEW_DECISIONS.join(', ')}`,
});
export type ReviewDecision = z.infer<typeof ReviewDecision>;

/** The knowledge-base version an approval wrote. */
export const KbRevisionRef = z.object({ revision: z.number().int(), kbVersion: z.string() });

/** The last review of a document (approved, or returned with a comment). */
export const AnnotationReview = z.object({
  outcome: z.enum(['approved', 'returned']),
  comment: z.string().nullable(),
  reviewer: AuthoringPerson,
  reviewedOn: z.iso.datetime({ offset: true }),
  entities: z.array(z.object({ id: z.string(), decision: ReviewDecision })),
  relationships: z.array(z.object({ id: z.string(), decision: ReviewDecision })),
  /** Set on approval when the knowledge base changed. */
  kbRevision: KbRevisionRef.nullable(),
  /** Approved rows that link nothing in the knowledge base, and why (the document's own concept…). */
  notLinked: z.array(z.object({ id: z.string(), reason: z.string() })).optional(),
});
export type AnnotationReview = z.infer<typeof AnnotationReview>;

/** Statuses a document has on the authoring side: the data preparation ones, ANNOTATION_APPROVED included. */
export const AuthoringStatus = DataPreparationStatus;

/** One row of the 'Authoring Tasks' table. */
export const AuthoringJobSummary = z.object({
  key: z.string(),
  code: z.string(),
  displayName: z.string().describe('Document Name'),
  source: z.string().nullable().describe('Document Source'),
  status: AuthoringStatus,
  jobType: AuthoringJobType,
  holder: AuthoringHolder.nullable(),
  updatedOn: z.iso.datetime({ offset: true }),
});
export type AuthoringJobSummary = z.infer<typeof AuthoringJobSummary>;

export const AuthoringJobList = z.object({ items: z.array(AuthoringJobSummary) });
export type AuthoringJobList = z.infer<typeof AuthoringJobList>;

/** `?jobType=` of the list: job types, repeated or comma-separated; absent means all four. */
export const AuthoringListQuery = z.object({
  jobType: z
    .preprocess(
      (value) =>
        (Array.isArray(value) ? value : [value]).flatMap((item: unknown) =>
          typeof item === 'string' ? item.split(',').map((s) => s.trim()) : [item],
        ),
      z.array(AuthoringJobType).min(1),
    )
    .optional(),
});
export type AuthoringListQuery = z.infer<typeof AuthoringListQuery>;

/** An authoring job (spec 2 §3 "Authoring job (document)"), as the Annotation Task screen opens it. */
export const AuthoringJob = z.object({
  key: z.string(),
  code: z.string(),
  displayName: z.string(),
  source: z.string().nullable(),
  status: AuthoringStatus,
  /** Null once the document leaves the authoring list (ANNOTATION_APPROVED, REJECTED, REGISTERED). */
  jobType: AuthoringJobType.nullable(),
  provenance: z.array(z.looseObject({ source: z.string() })),
  /** The text the offsets count in (the approved prepared text). */
  preparedText: z.string(),
  documentConcept: DocumentConcept.nullable(),
  annotations: AnnotationSet.nullable(),
  annotationsDraft: DraftSet.nullable(),
  /** The draft's provenance system is 'decoded-portal' (spec 2 §4): restore it. */
  draftRestorable: z.boolean(),
  /** Send it back with every save (optimistic concurrency). */
  version: z.number().int().nonnegative(),
  holder: AuthoringHolder.nullable(),
  annotatedBy: AuthoringPerson.nullable(),
  review: AnnotationReview.nullable(),
});
export type AuthoringJob = z.infer<typeof AuthoringJob>;

/** A refusal that carries the job as it is now (a version conflict, someone else's hold). */
export const AuthoringConflict = ErrorBody.extend({
  current: AuthoringJob.optional(),
  holder: AuthoringHolder.optional(),
});
export type AuthoringConflict = z.infer<typeof AuthoringConflict>;

const version = z
  .number({ message: 'is required: the version of the job you opened' })
  .int({ message: 'must be a whole number' })
  .nonnegative({ message: 'must be 0 or more' });

/** Body of `…/draft`. */
export const SaveDraftBody = z.object({ version, annotations: AnnotationSetInput });
export type SaveDraftBody = z.input<typeof SaveDraftBody>;

/** Body of `…/submit`. */
export const SubmitAnnotationsBody = z.object({ version, annotations: AnnotationSetInput });
export type SubmitAnnotationsBody = z.input<typeof SubmitAnnotationsBody>;

/** A decision on one entity; `entity` is the changed entity (same id and span) for 'change'. */
export const EntityReview = z.object({
  id: z.string().min(1),
  decision: ReviewDecision,
  entity: AnnotatedEntity.optional(),
});
/** A decision on one relationship; `relationship` is the changed row for 'change'. */
export const RelationshipReview = z.object({
  id: z.string().min(1),
  decision: ReviewDecision,
  relationship: AnnotatedRelationship.optional(),
});

/**
 * Body of `…/review`: a decision for every submitted entity and relationship (for 'approve'; a
 * 'return' may leave some out: they stay as they were), then approve, or return with a comment.
 */
export const ReviewAnnotationsBody = z.object({
  version,
  outcome: z.enum(['approve', 'return'], { message: 'must be approve or return' }),
  comment: text(5000).nullish(),
  entities: z.array(EntityReview).max(20_000).default([]),
  relationships: z.array(RelationshipReview).max(20_000).default([]),
});
export type ReviewAnnotationsBody = z.input<typeof ReviewAnnotationsBody>;

const saveErrors = {
  ...errorResponses([400, 403, 404]),
  409: AuthoringConflict,
};

/** The `/internal` routes of the authoring area. */
export const AUTHORING_ROUTES = [
  {
    method: 'GET',
    path: '/internal/authoring/jobs',
    access: any('jobs:annotation:perform', 'jobs:annotation:review'),
    area: 'authoring',
    patientData: 'none',
    spec: '2 §2, §4',
    query: AuthoringListQuery,
    response: { 200: AuthoringJobList },
  },
  {
    method: 'GET',
    path: '/internal/authoring/jobs/:id',
    access: any('jobs:annotation:perform', 'jobs:annotation:review'),
    area: 'authoring',
    patientData: 'none',
    spec: '2 §2, §3',
    params: DocumentIdParams,
    response: { 200: AuthoringJob },
  },
  {
    method: 'POST',
    path: '/internal/authoring/jobs/:id/_take',
    access: any('jobs:annotation:perform', 'jobs:annotation:review'),
    area: 'authoring',
    patientData: 'none',
    spec: '2 §4',
    params: DocumentIdParams,
    body: NoBody,
    response: { 200: AuthoringJob, ...errorResponses([403, 404]), 409: AuthoringConflict },
  },
  {
    method: 'POST',
    path: '/internal/authoring/jobs/:id/_release',
    access: any('jobs:annotation:perform', 'jobs:annotation:review'),
    area: 'authoring',
    patientData: 'none',
    spec: '2 §4',
    params: DocumentIdParams,
    body: NoBody,
    response: { 200: AuthoringJob, ...errorResponses([404]) },
  },
  {
    method: 'POST',
    path: '/internal/authoring/jobs/:id/draft',
    access: any('jobs:annotation:perform'),
    area: 'authoring',
    patientData: 'none',
    spec: '2 §4, §5, §7',
    params: DocumentIdParams,
    body: SaveDraftBody,
    response: { 200: AuthoringJob, ...saveErrors },
  },
  {
    method: 'POST',
    path: '/internal/authoring/jobs/:id/submit',
    access: any('jobs:annotation:perform'),
    area: 'authoring',
    patientData: 'none',
    spec: '2 §4, §5, §7',
    params: DocumentIdParams,
    body: SubmitAnnotationsBody,
    response: { 200: AuthoringJob, ...saveErrors },
  },
  {
    // Not in the spec (issue 13 item 5): the review of the submitted annotations.
    method: 'POST',
    path: '/internal/authoring/jobs/:id/review',
    access: any('jobs:annotation:review'),
    area: 'authoring',
    patientData: 'none',
    spec: '2 §4 (issue 13)',
    params: DocumentIdParams,
    body: ReviewAnnotationsBody,
    response: { 200: AuthoringJob, ...saveErrors },
  },
] as const satisfies readonly ApiRoute[];
