import { z } from 'zod';
import { TYPEAHEAD_MIN_CHARS } from './intelligence.ts';

/**
 * Data preparation of guideline documents and the authoring side of document annotation (spec 2
 * §2 "Data Preparation Jobs screen", "Authoring Tasks screen", §3, §4 "Data preparation statuses",
 * §5, §7 "Data preparation", "Authoring document side"): the wire shapes of
 * `/internal/data-preparation` (a prefix the spec gives as "a reading").
 */

/** Data preparation statuses (spec 2 §4). */
export const DATA_PREPARATION_STATUSES = [
  'REGISTERED',
  'PREPARED_FOR_REVIEW',
  'DOCUMENT_APPROVED',
  'ANNOTATED_DRAFT',
  'ANNOTATED_FOR_REVIEW',
  'REJECTED',
  // Not in spec 2 §4: the annotations' reviewer approved them (issue 13, docs/authoring.md).
  'ANNOTATION_APPROVED',
] as const;
export const DataPreparationStatus = z.enum(DATA_PREPARATION_STATUSES, {
  message: `must be one of ${DATA_PREPARATION_STATUSES.join(', ')}`,
});
export type DataPreparationStatus = z.infer<typeof DataPreparationStatus>;

/** The statuses of each work-stage list (spec 2 §4 "Lists"). */
export const DATA_PREPARATION_LISTS = {
  registered: ['REGISTERED'],
  preparationReview: ['PREPARED_FOR_REVIEW'],
  annotation: ['DOCUMENT_APPROVED', 'ANNOTATED_DRAFT'],
} as const satisfies Record<string, readonly DataPreparationStatus[]>;

/** Coding systems of the classification (spec 2 §9 "Coding systems: UMLS and ICD-10"). */
export const CLASSIFICATION_SYSTEMS = { umls: 'UMLS', icd10: 'ICD-10' } as const;

/** The portal's system tag on annotation sets (spec 2 §9 "Document system tag"). */
export const PORTAL_SYSTEM = 'decoded-portal';

/** Query `status` of `_size` and `summary` (spec 2 §7): one status, repeated or comma-separated; absent means all. */
export const DataPreparationStatusQuery = z.object({
  status: z
    .preprocess(
      (value) =>
        (Array.isArray(value) ? value : [value]).flatMap((item: unknown) =>
          typeof item === 'string' ? item.split(',') : [item],
        ),
      z.array(DataPreparationStatus).min(1),
    )
    .optional(),
});
export type DataPreparationStatusQuery = z.infer<typeof DataPreparationStatusQuery>;

/** Where a document comes from (spec 2 §3 "Data preparation job": `provenance [{source, publishedDate, pageNumber}]`). */
export const DocumentProvenance = z.looseObject({
  source: z.string(),
  publishedDate: z.string().nullable().optional().describe('the form’s Published Date'),
  pageNumber: z.string().nullable().optional().describe('the form’s Page Numbers, as typed'),
});
export type DocumentProvenance = z.infer<typeof DocumentProvenance>;

/** A code of the document (spec 2 §3 "Data preparation job": `classification [{system, code, display}]`). */
export const DocumentClassification = z.object({
  system: z.string().min(1).describe('UMLS (the CUI) or ICD-10'),
  code: z.string().min(1),
  display: z.string(),
});
export type DocumentClassification = z.infer<typeof DocumentClassification>;

/** A stored file of the document (spec 2 §3 "Data preparation job": `references [{code {system, code}, reference, contentType}]`). */
export const DocumentReference = z.object({
  code: z.object({ system: z.string(), code: z.string() }),
  reference: z.string().min(1).describe('the file’s name or address'),
  contentType: z.string().min(1),
});
export type DocumentReference = z.infer<typeof DocumentReference>;

/** Entity categories of the document entity form (spec 2 §5 "Document annotation"). */
export const DOCUMENT_ENTITY_CATEGORIES = [
  'Organ system',
  'Anatomic location',
  'Tissue type',
  'Pathogenesis',
  'Pathophysiology',
  'Epidemiology',
  'Symptom',
  'Sign',
  'Personal factor',
  'Antecedent disease',
  'Comorbidity',
  'Complication',
  'Differential diagnosis',
  'Diagnostics',
  'Treatment',
  'Other',
] as const;
export const DocumentEntityCategory = z.enum(DOCUMENT_ENTITY_CATEGORIES, {
  message: `must be one of ${DOCUMENT_ENTITY_CATEGORIES.join(', ')}`,
});
export type DocumentEntityCategory = z.infer<typeof DocumentEntityCategory>;

/**
 * An annotated entity as submitted (spec 2 §3 "Entity on the document screen": the data part;
 * "On submit only the data part is sent"): category and CUI are required (spec 2 §5).
 */
export const DocumentEntity = z.looseObject({
  id: z.uuid({ message: 'must be the entity’s uuid' }),
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  extract: z.string(),
  category: DocumentEntityCategory,
  preferredText: z.string().optional(),
  conceptName: z.string().optional(),
  CUI: z.string().min(1, { message: 'is required: choose a concept' }),
  TUI: z.array(z.object({ tui: z.string(), description: z.string() })).default([]),
  notes: z.string().optional(),
});
export type DocumentEntity = z.infer<typeof DocumentEntity>;

/** Relationship row (spec 2 §3): the entity's id, its extract, its formatted category and a free-text weight. */
export const RelationshipRow = z.object({
  id: z.string().describe('equal to the entity id'),
  entity: z.string().describe('the extract'),
  category: z.string(),
  weight: z.string().describe('free text, initially empty'),
});
export type RelationshipRow = z.infer<typeof RelationshipRow>;

/** Provenance of an annotation set (spec 2 §3 "Annotation set": `provenance {source, createdOn, system}`). */
export const AnnotationProvenance = z.object({
  source: z.string().describe('the page address'),
  createdOn: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }),
  system: z.string().describe(`'${PORTAL_SYSTEM}' when the portal wrote it`),
});
export type AnnotationProvenance = z.infer<typeof AnnotationProvenance>;

/** Annotation set (spec 2 §3): the submitted `annotations` of a document. */
export const AnnotationSet = z.object({
  entities: z.array(DocumentEntity),
  relationships: z.array(RelationshipRow),
  provenance: AnnotationProvenance,
});
export type AnnotationSet = z.infer<typeof AnnotationSet>;

/**
 * Annotation set saved as a draft (spec 2 §4 "Save as draft … stores annotationsDraft"): a draft
 * may hold entities not finished yet (no category or CUI, with their state), so they are open.
 */
export const DraftAnnotationSet = z.object({
  entities: z.array(z.record(z.string(), z.unknown())),
  relationships: z.array(RelationshipRow),
  provenance: AnnotationProvenance,
});
export type DraftAnnotationSet = z.infer<typeof DraftAnnotationSet>;

/**
 * Data preparation job (spec 2 §3), with the fields the authoring side adds to the same document
 * (spec 2 §3 "Authoring job (document)": source, annotations, annotationsDraft, preparedText).
 * `GET …/metadata/{id}` answers it; `POST …/metadata` saves it (see SaveDataPreparationJob).
 */
export const DataPreparationJob = z.looseObject({
  key: z.string().min(1),
  code: z.string().min(1).describe('names the prepared files (spec 2 §9)'),
  displayName: z.string().describe('the form’s Document Name'),
  status: DataPreparationStatus,
  rejectionComment: z.string().nullable().optional(),
  containsImages: z.boolean().default(false),
  containsTables: z.boolean().default(false),
  provenance: z.array(DocumentProvenance).default([]),
  classification: z.array(DocumentClassification).default([]),
  references: z.array(DocumentReference).default([]),
  source: z.string().optional().describe('the Document Source column of the authoring list'),
  preparedText: z.string().optional().describe('the prepared text, in the preparation state'),
  annotations: AnnotationSet.nullable().optional(),
  annotationsDraft: DraftAnnotationSet.nullable().optional(),
  extraction: z
    .lazy(() => DocumentExtraction)
    .optional()
    .describe('what the server read from the original (set by the server, ignored when saved)'),
});
export type DataPreparationJob = z.infer<typeof DataPreparationJob>;

const hasText = (value: string | null | undefined): boolean =>
  value !== undefined && value !== null && value.trim().length > 0;

/**
 * Body of `POST /internal/data-preparation/metadata` ("with the job", spec 2 §7): the job, checked
 * by the rules of spec 2 §4–§5 for the status it moves to.
 */
export const SaveDataPreparationJob = DataPreparationJob.superRefine((job, context) => {
  if (job.status === 'REJECTED') {
    if (!hasText(job.rejectionComment)) {
      context.addIssue({
        code: 'custom',
        path: ['rejectionComment'],
        message: 'is required: say why the document is rejected',
      });
    }
    return;
  }
  if (job.status === 'REGISTERED') {
    return;
  }
  // Past registration the document has been prepared: "Document name, document source and CUI are required."
  if (!hasText(job.displayName)) {
    context.addIssue({ code: 'custom', path: ['displayName'], message: 'must not be empty' });
  }
  if (!job.provenance.some((entry) => hasText(entry.source))) {
    context.addIssue({
      code: 'custom',
      path: ['provenance'],
      message: 'needs the document source',
    });
  }
  if (!job.classification.some((entry) => entry.system === CLASSIFICATION_SYSTEMS.umls)) {
    context.addIssue({
      code: 'custom',
      path: ['classification'],
      message: `needs the CUI (a ${CLASSIFICATION_SYSTEMS.umls} code)`,
    });
  }
  if (job.status === 'ANNOTATED_DRAFT' && !job.annotationsDraft) {
    context.addIssue({ code: 'custom', path: ['annotationsDraft'], message: 'is required' });
  }
  if (job.status === 'ANNOTATED_FOR_REVIEW' && !job.annotations) {
    context.addIssue({ code: 'custom', path: ['annotations'], message: 'is required' });
  }
});
export type SaveDataPreparationJob = z.input<typeof SaveDataPreparationJob>;

/** One row of a work-stage list (`GET …/metadata/summary?status=`, spec 2 §2, §7). */
export const DataPreparationJobSummary = z.looseObject({
  key: z.string(),
  code: z.string(),
  displayName: z.string(),
  status: DataPreparationStatus,
  source: z.string().optional().describe('the document source'),
});
export type DataPreparationJobSummary = z.infer<typeof DataPreparationJobSummary>;

/** `GET /internal/data-preparation/metadata/summary?status=` (spec 2 §7). */
export const DataPreparationJobList = z.object({ items: z.array(DataPreparationJobSummary) });
export type DataPreparationJobList = z.infer<typeof DataPreparationJobList>;

/** The `{id}` of `…/metadata/{id}`, `…/document/text|pdf/{id}` and `…/reference/{id}` (spec 2 §7). */
export const DocumentIdParams = z.object({ id: z.string().min(1).max(200) });
export type DocumentIdParams = z.infer<typeof DocumentIdParams>;

/** `GET …/document/text/{id}` (spec 2 §7: "the body is the text"), sent as text/plain. */
export const DocumentText = z.string();
export type DocumentText = z.infer<typeof DocumentText>;

/** `GET …/document/pdf/{id}` (spec 2 §7): the PDF's bytes, sent as application/pdf. */
export const PdfDocument = z.instanceof(Uint8Array);
export type PdfDocument = z.infer<typeof PdfDocument>;

/** `GET …/reference/{id}` (spec 2 §7: "the response holds a url"): where the frame loads the document. */
export const DocumentReferenceUrl = z.looseObject({ url: z.string().min(1) });
export type DocumentReferenceUrl = z.infer<typeof DocumentReferenceUrl>;

/** The `{name}` of `POST …/document/{name}` (spec 2 §7): a file name, no folder. */
export const DocumentNameParams = z.object({
  name: z.string().regex(
    // eslint-disable-next-line no-control-regex -- control characters are what it refuses
    /^(?!\.)[^/\\\u0000-\u001f]{1,200}$/,
    'must be a file name of 1–200 characters, without slashes, not starting with a dot',
  ),
});
export type DocumentNameParams = z.infer<typeof DocumentNameParams>;

/** Body of `POST …/document/{name}` (spec 2 §7 "with the file body"): the prepared text, text/plain. */
export const PreparedTextFile = z.string();
export type PreparedTextFile = z.infer<typeof PreparedTextFile>;

/** The name of a prepared file (spec 2 §9): the job code with `.prepared.txt`, or `.prepared.approved.txt` when approved. */
export function preparedFileName(code: string, approved: boolean): string {
  return `${code}${approved ? '.prepared.approved.txt' : '.prepared.txt'}`;
}

/** The views `GET …/query/{view}` searches (spec 2 §7 names `umls_view`). */
export const CONCEPT_QUERY_VIEWS = ['umls_view'] as const;
export const ConceptQueryParams = z.object({
  view: z.enum(CONCEPT_QUERY_VIEWS, { message: `must be ${CONCEPT_QUERY_VIEWS.join(' or ')}` }),
});
export type ConceptQueryParams = z.infer<typeof ConceptQueryParams>;

/** Query of `GET …/query/{view}?q=` (spec 2 §7): concept pickers search from 3 characters (spec 2 §5). */
export const ConceptOptionQuery = z.object({
  q: z
    .string({ message: 'is required: the text to search for' })
    .trim()
    .min(TYPEAHEAD_MIN_CHARS, { message: `needs at least ${TYPEAHEAD_MIN_CHARS} characters` })
    .max(200, { message: 'must be at most 200 characters' }),
});
export type ConceptOptionQuery = z.infer<typeof ConceptOptionQuery>;

/** Concept option (spec 2 §3): name, conceptId, relevance, types, sources [{system, code}]. */
export const ConceptOption = z.looseObject({
  name: z.string(),
  conceptId: z.string(),
  relevance: z.number(),
  types: z.array(z.string()),
  sources: z.array(z.object({ system: z.string(), code: z.string() })),
});
export type ConceptOption = z.infer<typeof ConceptOption>;

/** `GET /internal/data-preparation/query/{view}?q=` (spec 2 §7): the concept options. */
export const ConceptOptionList = z.object({ results: z.array(ConceptOption) });
export type ConceptOptionList = z.infer<typeof ConceptOptionList>;

/** The two kinds of original a document may be (issue 12): a PDF, or plain UTF-8 text. */
export const ORIGINAL_CONTENT_TYPES = ['application/pdf', 'text/plain'] as const;
export type OriginalContentType = (typeof ORIGINAL_CONTENT_TYPES)[number];

/**
 * What the server read from an original at registration: its pages and whether it had a text
 * layer ('Extracted Text' starts from it; a scanned PDF has none, and the screen says so).
 */
export const DocumentExtraction = z.object({
  fileName: z.string(),
  contentType: z.enum(ORIGINAL_CONTENT_TYPES),
  bytes: z.number().int().nonnegative(),
  pages: z.number().int().nonnegative().describe('pages of a PDF; 1 for text'),
  textLayer: z.boolean().describe('false: a PDF without text on any page (scanned)'),
});
export type DocumentExtraction = z.infer<typeof DocumentExtraction>;

/** The message of a PDF without a text layer (screen and API alike). */
export const NO_TEXT_LAYER_MESSAGE =
  'This PDF has no text layer (it is probably scanned): no text could be extracted, so type the prepared text from the document.';

/**
 * The form fields of an upload (`POST /api/v1/documents`, `POST …/data-preparation/documents`),
 * sent as multipart/form-data before the file part; the API needs `name` and `source`.
 */
export const DocumentUploadFields = z.object({
  name: z.string().trim().min(1).max(500).describe('the Document Name'),
  source: z.string().trim().min(1).max(500).describe('the Document Source (publisher)'),
  file: z
    .string()
    .meta({ format: 'binary' })
    .describe('the document: a PDF or UTF-8 text, whatever its extension; the last part'),
});

/** The form of the screen's upload: the file alone is enough, name and source come in the form. */
export const PortalDocumentUpload = DocumentUploadFields.partial({ name: true, source: true });

/** Answer of an upload: the registered job (status REGISTERED) without its text. */
export const RegisteredDocument = z.object({
  key: z.string(),
  code: z.string(),
  displayName: z.string(),
  status: DataPreparationStatus,
  source: z.string().optional(),
  extraction: DocumentExtraction,
  message: z.string().optional().describe('set when the PDF has no text layer'),
});
export type RegisteredDocument = z.infer<typeof RegisteredDocument>;

/** `GET …/metadata/_next`: the oldest registered job, now leased to the caller, or null. */
export const NextDataPreparationJob = DataPreparationJob.nullable();
