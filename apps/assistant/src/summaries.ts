import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CreateJobBody, JobView } from '@loopdesk/contracts/integration.ts';
import {
  SUMMARY_JOB_TYPE,
  SUMMARY_QUEUE,
  SUMMARY_SENT_TYPE,
  type SummaryCoding,
  type SummaryDocument,
  type SummaryJobData,
} from '@loopdesk/contracts/summaries.ts';
import { loadKnowledgeBase } from '@loopdesk/clinical/kb/integrity.ts';
import { createRecogniser, type Recogniser } from '@loopdesk/clinical/nlp/recognise.ts';
import type { IntegrationClient } from './client.ts';

/**
 * The demo assistant's clinical summaries (issue 12): at the end of each scripted intake it writes
 * a note of the history of present illness from what the technicians annotated, codes it with the
 * knowledge base (UMLS and ICD-10), and sends it as a summary job; when a reviewer sends the note
 * to the physician, it hears of it in the outbox feed and records the receipt.
 */

/** What an intake leaves for its summary: the patient, and the annotated extracts by slot. */
export interface FinishedIntake {
  conversationId: string;
  tenant: string;
  name: { given: string; family: string };
  extracts: Readonly<Record<string, string>>;
}

export const SUMMARY_SOURCE = { sourceName: 'loopdesk-demo-assistant', sourceVersion: '1.0.0' };

/** How each slot's extract reads in the note. */
const LEADS: Readonly<Record<string, string>> = {
  chief_complaints: 'Presents with',
  current_complaint: 'Presents with',
  patient_description: 'Describes it as',
  onset: 'Onset:',
  associated_sx: 'Associated symptoms:',
  additional_info: 'Also reports:',
};

const KB_PATH = path.resolve(import.meta.dirname, '../../../data/kb/kb.json');

/** The knowledge base's recogniser, built once, on the first note. */
let recogniser: Recogniser | undefined;
function coder(): Recogniser {
  recogniser ??= createRecogniser(
    loadKnowledgeBase(JSON.parse(readFileSync(KB_PATH, 'utf8'))).items.concepts,
  );
  return recogniser;
}

/**
 * The note of an intake: one section per annotated slot, each concept the knowledge base finds in
 * it highlighted and coded (its UMLS CUI, and its ICD-10 code when it has one). Denied findings are
 * not coded. Null when the technicians annotated nothing to summarise.
 */
export function writeNote(
  extracts: Readonly<Record<string, string>>,
  recognise: Recogniser = coder(),
): SummaryDocument | null {
  const codes = new Map<string, SummaryCoding>();
  const sections = Object.entries(extracts).map(([slot, extract], index) => {
    const lead = LEADS[slot];
    const content = `${lead ? `${lead} ` : ''}${extract.replace(/[.\s]+$/, '')}.`;
    const annotations = recognise
      .recognise(content)
      .entities.filter((entity) => !entity.negated)
      .flatMap((entity, n) => {
        const concept = recognise.lookup(entity.conceptId);
        const cui = concept?.cui ?? concept?.codes.find((c) => c.system === 'UMLS')?.code;
        if (!concept || !cui) {
          return [];
        }
        const value = concept.canonicalName;
        codes.set(`UMLS|${cui}`, { source: 'snomed', code: { system: 'UMLS', code: cui, value } });
        const icd = concept.codes.find((c) => c.system === 'ICD10CM');
        if (icd) {
          codes.set(`ICD-10|${icd.code}`, {
            source: 'snomed',
            code: { system: 'ICD-10', code: icd.code, value },
          });
        }
        return [{ id: `s${index + 1}-a${n + 1}`, start: entity.start, end: entity.end, code: cui }];
      });
    return { id: slot, content, annotations };
  });
  return sections.length > 0 ? { sections, codes: [...codes.values()] } : null;
}

/** The summary job of a finished intake, or null when there is nothing to summarise. */
export function summaryJob(
  intake: FinishedIntake,
  note = writeNote(intake.extracts),
): CreateJobBody | null {
  if (!note) {
    return null;
  }
  const data: SummaryJobData = {
    document: note,
    ...SUMMARY_SOURCE,
    conversationId: intake.conversationId,
  };
  return { queue: SUMMARY_QUEUE, type: SUMMARY_JOB_TYPE, tenant: intake.tenant, data };
}

/** Sends the summary job of a finished intake (a retry with the same key is safe). */
export async function sendSummary(
  client: IntegrationClient,
  intake: FinishedIntake,
  log: (line: string) => void,
): Promise<void> {
  const who = `${intake.name.given} ${intake.name.family}`;
  const body = summaryJob(intake);
  if (!body) {
    log(`${who}: nothing annotated to summarise`);
    return;
  }
  const job = await client.createJob(body, `${intake.conversationId}:summary`);
  log(`${who}: clinical summary → job ${job.id} (${SUMMARY_QUEUE})`);
}

/**
 * The clinical note a reviewer sent to the physician, heard in the feed (`job.completed` of a
 * summary job, result `hpi.summarised`): recorded in the log. Other jobs are not its business.
 */
export function receiveClinicalNote(job: JobView, log: (line: string) => void): boolean {
  const result = job.result;
  if (
    job.queue !== SUMMARY_QUEUE ||
    job.state !== 'completed' ||
    result?.type !== SUMMARY_SENT_TYPE
  ) {
    return false;
  }
  const note = result.data as {
    conversationId?: string;
    reviewedBy?: string;
    document?: SummaryDocument;
  };
  const codes = (note.document?.codes ?? []).map((c) => `${c.code.system} ${c.code.code}`);
  log(
    `clinical note received for the physician: job ${job.id}, conversation ${note.conversationId ?? '?'}, reviewed by ${note.reviewedBy ?? '?'}; codes ${codes.join(', ') || 'none'}`,
  );
  return true;
}
