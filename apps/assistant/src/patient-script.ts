// The shape of a scripted patient and the builders of its steps (the scripts are in patients.ts).
import type { CreateJobBody } from '@loopdesk/contracts/integration.ts';
import type { HandoverScript } from './handover.ts';

/** What the assistant learnt from earlier steps, to word the next question. */
export interface Memory {
  /** Extracts the technicians annotated, by slot code. */
  readonly extracts: Readonly<Record<string, string>>;
}

/** One scripted step: a job for the portal, worded from what is known so far. */
export interface Step {
  readonly name: string;
  readonly queue: CreateJobBody['queue'];
  readonly type: CreateJobBody['type'];
  readonly priority?: number;
  build(memory: Memory): Record<string, unknown>;
}

/** A scripted patient intake conversation. */
export interface PatientScript {
  readonly id: string;
  readonly name: { given: string; family: string };
  readonly tenant: string;
  readonly steps: readonly Step[];
  /** Where the patient asks for a human or goes off-script, and the assistant hands over. */
  readonly handover?: HandoverScript;
}

export const complaint = (memory: Memory, fallback: string) =>
  memory.extracts.chief_complaints ?? memory.extracts.current_complaint ?? fallback;

export interface SlotOptions {
  code: string;
  description: string;
  dataType?: string;
  multiplicity?: string;
  enums?: string[];
  /** The job's purpose; null sends none, as the older contract did (the older annotation screen). */
  purpose?: 'full' | 'annotate-only' | 'verify-answered' | null;
  related?: string[];
  /** The intent the message is about (job metadata xdhtopint): its context menu applies. */
  intent?: string;
  /**
   * Annotations the language services already put on the patient's answer
   * (`lastTurn.metadata.entities`): annotate-only hides some, verify-answered starts without them.
   */
  entities?: readonly { start: number; end: number; extract: string; category: string }[];
  /** Other wordings of the question (`slotUtteranceSpecification.options`): Exception offers them. */
  rephrase?: readonly string[];
  /**
   * The job's custom exception label (`job.exceptionLabel`): the Exception button bears it and
   * sends the custom exception event, 'suggest_forget' (spec 1 §4); needs a purpose.
   */
  exceptionLabel?: string;
}

/** The entity of `extract` in `text` with `category` (offsets counted in the text). */
export function entityIn(text: string, extract: string, category: string) {
  const start = text.indexOf(extract);
  if (start < 0) {
    throw new Error(`'${extract}' is not in '${text}'`);
  }
  return { start, end: start + extract.length, extract, category };
}

/** A message annotation job for one HPI slot (spec 1 §3 job event data). */
export function slotStep(
  name: string,
  options: SlotOptions,
  question: (m: Memory) => string,
  answer: (m: Memory) => string,
): Step {
  return {
    name,
    queue: 'federated',
    type: 'message.annotation.job',
    build: (memory) => ({
      quinnLastTurn: { content: question(memory) },
      lastTurn: {
        content: answer(memory),
        ...(options.entities ? { metadata: { entities: options.entities } } : {}),
      },
      ...(options.rephrase
        ? {
            slotUtteranceSpecification: {
              options: options.rephrase.map((content, index) => [
                `${options.code}-q${index + 1}`,
                content,
              ]),
            },
          }
        : {}),
      slotSpecification: {
        code: options.code,
        short_description: options.description,
        data_type: options.dataType ?? 'text',
        multiplicity: options.multiplicity ?? '1..1',
        ...(options.enums ? { enums: options.enums } : {}),
      },
      slot: { id: `slot-${options.code}`, code: options.code },
      relatedSlots: (options.related ?? []).map((code) => ({ id: `slot-${code}`, code })),
      ...(options.purpose === null
        ? {}
        : {
            job: {
              purpose: options.purpose ?? 'full',
              ...(options.exceptionLabel === undefined
                ? {}
                : { exceptionLabel: options.exceptionLabel }),
            },
          }),
      ...(options.intent === undefined ? {} : { metadata: { xdhtopint: options.intent } }),
    }),
  };
}
