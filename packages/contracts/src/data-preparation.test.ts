import { describe, expect, it } from 'vitest';
import {
  ConceptOptionList,
  ConceptOptionQuery,
  ConceptQueryParams,
  DataPreparationJob,
  DataPreparationJobList,
  DataPreparationStatusQuery,
  DocumentNameParams,
  PdfDocument,
  preparedFileName,
  SaveDataPreparationJob,
} from './data-preparation.ts';

// A data preparation job with every field spec 2 §3 lists, as the review form submits it.
const prepared = {
  key: 'doc-17',
  code: 'NICE-NG84',
  displayName: 'Sore throat (acute): antimicrobial prescribing',
  status: 'PREPARED_FOR_REVIEW',
  rejectionComment: null,
  containsImages: false,
  containsTables: true,
  provenance: [{ source: 'NICE', publishedDate: '2018-01-26', pageNumber: '1-24' }],
  classification: [
    { system: 'UMLS', code: 'C0242429', display: 'Sore throat' },
    { system: 'ICD-10', code: 'J02.9', display: 'Acute pharyngitis, unspecified' },
  ],
  references: [
    {
      code: { system: 'file', code: 'original' },
      reference: 'NICE-NG84.pdf',
      contentType: 'application/pdf',
    },
  ],
};

const annotationSet = {
  entities: [
    {
      id: '6f1c2a8e-3b4d-4c5e-8f90-1a2b3c4d5e6f',
      start: 0,
      end: 11,
      extract: 'Sore throat',
      category: 'Symptom',
      preferredText: 'Pharyngitis',
      conceptName: 'Sore throat',
      CUI: 'C0242429',
      TUI: [{ tui: 'T184', description: 'Sign or Symptom' }],
      notes: '',
    },
  ],
  relationships: [
    {
      id: '6f1c2a8e-3b4d-4c5e-8f90-1a2b3c4d5e6f',
      entity: 'Sore throat',
      category: 'Symptom',
      weight: '',
    },
  ],
  provenance: {
    source: 'http://localhost:8080/jobs/authoring-tasks',
    createdOn: '2026-11-26T01:00:00.000Z',
    system: 'decoded-portal',
  },
};

describe('data preparation schemas', () => {
  it('reads a data preparation job with every field of spec 2 §3', () => {
    const job = DataPreparationJob.parse(prepared);
    expect(job.classification.map((entry) => entry.system)).toEqual(['UMLS', 'ICD-10']);
    expect(job.provenance[0]?.source).toBe('NICE');
  });

  it('saves a prepared job, and an annotated one with its annotation set', () => {
    expect(SaveDataPreparationJob.safeParse(prepared).success).toBe(true);
    const annotated = SaveDataPreparationJob.parse({
      ...prepared,
      status: 'ANNOTATED_FOR_REVIEW',
      annotations: annotationSet,
      annotationsDraft: null,
    });
    expect(annotated.annotations?.entities[0]?.CUI).toBe('C0242429');
  });

  it('refuses a job with an unknown status or a non-boolean containsImages', () => {
    expect(DataPreparationJob.safeParse({ ...prepared, status: 'DONE' }).success).toBe(false);
    expect(DataPreparationJob.safeParse({ ...prepared, containsImages: 'yes' }).success).toBe(
      false,
    );
    const { key: _key, ...withoutKey } = prepared;
    expect(DataPreparationJob.safeParse(withoutKey).success).toBe(false);
  });

  it('refuses to save a prepared job without name, source or CUI (spec 2 §5)', () => {
    const result = SaveDataPreparationJob.safeParse({
      ...prepared,
      displayName: ' ',
      provenance: [{ source: '' }],
      classification: [{ system: 'ICD-10', code: 'J02.9', display: '' }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual([
      'classification',
      'displayName',
      'provenance',
    ]);
  });

  it('refuses a rejection without a comment, and takes one with it (spec 2 §5)', () => {
    const rejected = { ...prepared, status: 'REJECTED' };
    expect(SaveDataPreparationJob.safeParse(rejected).success).toBe(false);
    expect(
      SaveDataPreparationJob.safeParse({ ...rejected, rejectionComment: 'Wrong document.' })
        .success,
    ).toBe(true);
  });

  it('refuses submitted annotations with an entity lacking its CUI or with an unknown category', () => {
    const entity = annotationSet.entities[0]!;
    for (const bad of [
      { ...entity, CUI: '' },
      { ...entity, category: 'Bone' },
    ]) {
      const result = SaveDataPreparationJob.safeParse({
        ...prepared,
        status: 'ANNOTATED_FOR_REVIEW',
        annotations: { ...annotationSet, entities: [bad] },
      });
      expect(result.success).toBe(false);
    }
  });

  it('reads a status list given once, repeated or comma-separated, and refuses an unknown one', () => {
    expect(DataPreparationStatusQuery.parse({ status: 'REGISTERED' }).status).toEqual([
      'REGISTERED',
    ]);
    expect(
      DataPreparationStatusQuery.parse({ status: 'DOCUMENT_APPROVED,ANNOTATED_DRAFT' }).status,
    ).toEqual(['DOCUMENT_APPROVED', 'ANNOTATED_DRAFT']);
    expect(
      DataPreparationStatusQuery.parse({ status: ['DOCUMENT_APPROVED', 'ANNOTATED_DRAFT'] }).status,
    ).toEqual(['DOCUMENT_APPROVED', 'ANNOTATED_DRAFT']);
    expect(DataPreparationStatusQuery.parse({}).status).toBeUndefined();
    expect(DataPreparationStatusQuery.safeParse({ status: 'APPROVED' }).success).toBe(false);
  });

  it('lists work-stage rows and refuses a row without its status', () => {
    const row = { key: 'doc-17', code: 'NICE-NG84', displayName: 'Sore throat', source: 'NICE' };
    expect(
      DataPreparationJobList.safeParse({ items: [{ ...row, status: 'REGISTERED' }] }).success,
    ).toBe(true);
    expect(DataPreparationJobList.safeParse({ items: [row] }).success).toBe(false);
  });

  it('names prepared files from the job code (spec 2 §9) and refuses a path as a name', () => {
    expect(preparedFileName('NICE-NG84', false)).toBe('NICE-NG84.prepared.txt');
    expect(preparedFileName('NICE-NG84', true)).toBe('NICE-NG84.prepared.approved.txt');
    expect(DocumentNameParams.safeParse({ name: 'NICE-NG84.prepared.txt' }).success).toBe(true);
    expect(DocumentNameParams.safeParse({ name: '../secrets.txt' }).success).toBe(false);
    expect(DocumentNameParams.safeParse({ name: '.hidden' }).success).toBe(false);
  });

  it('takes PDF bytes and refuses a string as a PDF', () => {
    expect(PdfDocument.safeParse(new Uint8Array([0x25, 0x50, 0x44, 0x46])).success).toBe(true);
    expect(PdfDocument.safeParse('%PDF').success).toBe(false);
  });

  it('searches umls_view from 3 characters and reads concept options (spec 2 §3)', () => {
    expect(ConceptQueryParams.safeParse({ view: 'umls_view' }).success).toBe(true);
    expect(ConceptQueryParams.safeParse({ view: 'users' }).success).toBe(false);
    expect(ConceptOptionQuery.safeParse({ q: 'fe' }).success).toBe(false);
    expect(ConceptOptionQuery.parse({ q: ' fev ' }).q).toBe('fev');
    const option = {
      name: 'Fever',
      conceptId: 'C0015967',
      relevance: 0.92,
      types: ['Sign or Symptom'],
      sources: [{ system: 'UMLS', code: 'C0015967' }],
    };
    expect(ConceptOptionList.safeParse({ results: [option] }).success).toBe(true);
    expect(
      ConceptOptionList.safeParse({ results: [{ ...option, relevance: 'high' }] }).success,
    ).toBe(false);
  });
});
