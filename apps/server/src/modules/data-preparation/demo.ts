import { PDFDocument, StandardFonts, rgb, type PDFFont } from 'pdf-lib';
import type { Concept } from '@loopdesk/clinical/kb/format.ts';
import { PORTAL_SYSTEM, type DataPreparationStatus } from '@loopdesk/contracts/data-preparation.ts';
import type { Database } from '../../platform/db/database.ts';
import type { Knowledge } from '../knowledge/knowledge.ts';
import type { Actor, DataPreparationService } from './service.ts';

/** Who registers (and, for the later stages, prepared) the demo documents. */
const DEMO_ACTOR: Actor = { id: 'demo:seed', email: null, roles: [] };
const DEMO_ORIGIN = { ip: 'local', userAgent: 'demo seed', requestId: 'demo-seed' };
export const DEMO_SOURCE = 'Loopdesk demo (generated from the demo knowledge base)';
const DEMO_MARK = 'DEMO DOCUMENT - generated for the Loopdesk demo, not clinical guidance.';

/** The sections of a demo guideline: what the knowledge base says of one condition. */
export function conditionText(knowledge: Knowledge, concept: Concept): string[][] {
  const { items } = knowledge.kb;
  const name = (id: string) => knowledge.byId.get(id)?.canonicalName ?? id;
  const findings = items.relationships
    .filter((r) => r.from === concept.id)
    .map((r) => `- ${name(r.to)} (${r.correlation})`);
  const complications = items.complications
    .filter((c) => c.condition === concept.id)
    .map((c) => `- ${c.name} (acuity ${c.acuity})`);
  const treatments = (items.treatments ?? [])
    .filter((t) => t.condition === concept.id)
    .map((t) => `- ${name(t.medication)}`);
  return [
    [
      DEMO_MARK,
      `Guideline: ${concept.canonicalName}`,
      `Also known as: ${concept.aliases.join(', ') || 'no other names'}.`,
      `CUI ${concept.cui ?? 'unknown'}. Acuity: ${concept.acuity ?? 'not graded'}. Prevalence: ${concept.prevalence ?? 'not given'}.`,
      ...(concept.definition ? [concept.definition] : []),
      'Findings',
      ...(findings.length > 0 ? findings : ['- none recorded']),
    ],
    [
      DEMO_MARK,
      `Guideline: ${concept.canonicalName} (continued)`,
      'Complications',
      ...(complications.length > 0 ? complications : ['- none recorded']),
      'Treatment',
      ...(treatments.length > 0 ? treatments : ['- none recorded']),
    ],
  ];
}

/** Lines that fit the page's width, in the font's measure. */
function wrap(line: string, font: PDFFont, size: number, width: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    const next = current ? `${current} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) > width && current) {
      out.push(current);
      current = word;
    } else {
      current = next;
    }
  }
  return [...out, current];
}

/** A PDF with a text layer, one page per section (pdf-lib; WinAnsi text only). */
export async function makePdf(
  title: string,
  pages: readonly (readonly string[])[],
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setProducer('Loopdesk demo');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    let y = 790;
    for (const [index, line] of lines.entries()) {
      const size = index === 0 ? 9 : index === 1 ? 16 : 11;
      // pdf-lib's standard fonts encode WinAnsi only.
      const safe = line.replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, '?');
      for (const part of wrap(safe, font, size, 495)) {
        if (y < 60) {
          break;
        }
        page.drawText(part, {
          x: 50,
          y,
          size,
          font,
          color: index === 0 ? rgb(0.7, 0, 0) : rgb(0, 0, 0),
        });
        y -= size + 6;
      }
    }
  }
  return pdf.save();
}

/** The conditions the demo documents are about: the first with findings, by name. */
function demoConditions(knowledge: Knowledge, count: number): Concept[] {
  const withFindings = new Set(knowledge.kb.items.relationships.map((r) => r.from));
  return knowledge.kb.items.concepts
    .filter((c) => c.class === 'condition' && withFindings.has(c.id))
    .sort((a, b) => a.canonicalName.localeCompare(b.canonicalName))
    .slice(0, count);
}

/**
 * Where each demo document is left, so that every list has work (spec 2 §4 "Lists"); two are
 * approved so that annotation has work for a demo and for the authoring e2e (docs/authoring.md).
 */
const STAGES: readonly DataPreparationStatus[] = [
  'REGISTERED',
  'DOCUMENT_APPROVED',
  'REGISTERED',
  'PREPARED_FOR_REVIEW',
  'PREPARED_FOR_REVIEW',
  'DOCUMENT_APPROVED',
];

/**
 * Registers a handful of demo guideline documents once into an empty table: PDFs made from the
 * knowledge base's conditions (and one plain text), each marked as a demo document, some moved on
 * to preparation review and annotation as if the demo preparer had done them.
 */
export async function seedDemoDocuments(deps: {
  db: Database;
  service: DataPreparationService;
  knowledge: Knowledge;
}): Promise<number> {
  const { db, service, knowledge } = deps;
  const { repo } = service;
  // One transaction holds the seeding lock: a second node starting at once seeds nothing.
  return db.transaction().execute(async (trx) => {
    if (await repo.lockSeedAndHasAny(trx)) {
      return 0;
    }
    const conditions = demoConditions(knowledge, STAGES.length);
    for (const [index, concept] of conditions.entries()) {
      const stage = STAGES[index] ?? 'REGISTERED';
      const pages = conditionText(knowledge, concept);
      const asText = index === 2;
      const fileName = `demo-guideline-${concept.id.replace(/^LD:/, '')}.${asText ? 'txt' : 'pdf'}`;
      const bytes = asText
        ? new TextEncoder().encode(pages.map((lines) => lines.join('\n')).join('\n\n'))
        : await makePdf(`Demo guideline: ${concept.canonicalName}`, pages);
      const registered = await service.register(
        {
          fileName,
          bytes,
          name: `Demo guideline: ${concept.canonicalName}`,
          source: DEMO_SOURCE,
          via: 'demo',
          demo: true,
        },
        DEMO_ACTOR,
        DEMO_ORIGIN,
        trx,
      );
      if (stage === 'REGISTERED') {
        continue;
      }
      const row = await repo.find(registered.key, trx);
      if (!row) {
        continue;
      }
      const icd10 = concept.codes.find((c) => c.system === 'ICD10CM');
      await repo.save(
        row.key,
        {
          status: stage,
          job: {
            ...row.job,
            status: stage,
            provenance: [{ source: DEMO_SOURCE, publishedDate: '2026-01-01', pageNumber: '1-2' }],
            classification: [
              { system: 'UMLS', code: concept.cui ?? concept.id, display: concept.canonicalName },
              ...(icd10
                ? [{ system: 'ICD-10', code: icd10.code, display: concept.canonicalName }]
                : []),
            ],
            references: [
              ...row.job.references,
              ...(stage === 'DOCUMENT_APPROVED'
                ? [
                    {
                      code: { system: PORTAL_SYSTEM, code: 'prepared-approved' },
                      reference: `${row.code}.prepared.approved.txt`,
                      contentType: 'text/plain',
                    },
                  ]
                : []),
            ],
          },
          preparedBy: 'demo:preparer',
          ...(stage === 'DOCUMENT_APPROVED' ? { reviewedBy: 'demo:reviewer' } : {}),
          keepLease: false,
        },
        trx,
      );
      if (stage === 'DOCUMENT_APPROVED') {
        await service.storeFile(`${row.code}.prepared.approved.txt`, row.extracted_text, trx);
      }
    }
    return conditions.length;
  });
}
