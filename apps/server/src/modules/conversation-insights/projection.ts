import { isDeepStrictEqual } from 'node:util';
import type { KbItems } from '@loopdesk/clinical/kb/format.ts';
import { OBSERVATION_CLASSES } from '@loopdesk/clinical/kb/format.ts';
import type { DifferentialModel } from '@loopdesk/clinical/inference/differential.ts';
import type { Presence, Recogniser } from '@loopdesk/clinical/nlp/recognise.ts';
import type { MemorySource, MemoryVertexKind } from '@loopdesk/contracts/conversation-insights.ts';

/**
 * The memory graph of a conversation (issue 14), as a pure projection: what the patient said,
 * what the assistant recorded and what technicians annotated are folded into vertices (the
 * patient, findings with presence and onset, conditions, answers, the handover); the edges follow
 * from the vertices and the knowledge base each time. The service stores the result.
 */

export interface Vertex {
  id: string;
  kind: MemoryVertexKind;
  label: string;
  conceptId: string | null;
  presence: Presence | null;
  onset: string | null;
  source: MemorySource;
  data: Record<string, unknown>;
}

export interface Edge {
  id: string;
  from: string;
  to: string;
  rel: string;
  source: MemorySource;
  data: Record<string, unknown>;
}

/** An annotated entity, as technicians submit it and the transcript's metadata holds it. */
export interface AnnotatedEntity {
  extract: string;
  category: string;
  presence?: unknown;
  negated?: unknown;
  concepts?: unknown;
}

export interface Clinical {
  recogniser: Recogniser;
  differential: DifferentialModel;
  items: KbItems;
}

/** How many conditions of the differential the memory keeps as considered. */
export const CONSIDERED_CONDITIONS = 5;

const observationClasses = new Set<string>(OBSERVATION_CLASSES);
const PRESENCES = new Set(['endorse', 'deny', 'unsure']);
const ONSET_CATEGORIES = new Set(['onset', 'Onset', 'onset_context', 'Onset context']);

export const findingId = (conceptId: string) => `finding:${conceptId}`;
export const conditionId = (conceptId: string) => `condition:${conceptId}`;
export const PATIENT = 'patient';
export const HANDOVER = 'handover';

/** The memory being updated: vertices by id; `changed` says whether anything moved. */
export class MemoryDraft {
  readonly vertices: Map<string, Vertex>;
  changed = false;

  constructor(
    vertices: readonly Vertex[],
    private readonly clinical: Clinical,
  ) {
    this.vertices = new Map(vertices.map((v) => [v.id, v]));
  }

  /** Adds or replaces a vertex; keeps what the update does not say. */
  put(vertex: Vertex): void {
    const before = this.vertices.get(vertex.id);
    const next = before
      ? { ...before, ...vertex, data: { ...before.data, ...vertex.data } }
      : vertex;
    if (!before || !isDeepStrictEqual(before, next)) {
      this.vertices.set(vertex.id, next);
      this.changed = true;
    }
  }

  remove(id: string): void {
    if (this.vertices.delete(id)) {
      this.changed = true;
    }
  }

  /** The patient, with where the conversation stands. */
  patient(name: string, consumerId: string, status: Record<string, unknown>): void {
    this.put({
      id: PATIENT,
      kind: 'patient',
      label: name,
      conceptId: null,
      presence: null,
      onset: null,
      source: 'assistant',
      data: { consumerId, ...status },
    });
  }

  /** A concept the patient has (or not), or a condition named. */
  private concept(
    conceptId: string,
    presence: Presence,
    source: MemorySource,
    messageId: string | null,
    original: string,
  ): string | null {
    const concept = this.clinical.recogniser.lookup(conceptId);
    if (!concept) {
      return null;
    }
    if (concept.class === 'condition') {
      const id = conditionId(conceptId);
      this.put({
        id,
        kind: 'condition',
        label: concept.canonicalName,
        conceptId,
        presence: null,
        onset: null,
        source,
        data: { mentioned: true, original, ...(concept.acuity ? { acuity: concept.acuity } : {}) },
      });
      return id;
    }
    if (!observationClasses.has(concept.class)) {
      return null;
    }
    const id = findingId(conceptId);
    this.put({
      id,
      kind: 'finding',
      label: concept.canonicalName,
      conceptId,
      presence,
      onset: this.vertices.get(id)?.onset ?? null,
      source,
      data: { class: concept.class, original, ...(messageId ? { messageId } : {}) },
    });
    return id;
  }

  /** Findings and conditions in free text, and its onset expressions; returns their vertex ids. */
  text(
    text: string,
    source: MemorySource,
    messageId: string | null,
    presence?: Presence,
  ): string[] {
    const recognition = this.clinical.recogniser.recognise(text);
    const ids: string[] = [];
    for (const entity of recognition.entities) {
      const { family, historical, hypothetical } = entity.context;
      if (family || historical || hypothetical) {
        continue;
      }
      const id = this.concept(
        entity.conceptId,
        presence ?? entity.presence,
        source,
        messageId,
        entity.original,
      );
      if (id) {
        ids.push(id);
      }
    }
    const onset = recognition.onsets[0]?.original;
    if (onset) {
      this.onset(onset, ids);
    }
    return ids;
  }

  /** Puts an onset on findings the patient has: those given, else those without one. */
  onset(onset: string, ids: readonly string[]): void {
    const findings = [...this.vertices.values()].filter(
      (v) => v.kind === 'finding' && v.presence === 'endorse',
    );
    const targets = ids.length
      ? findings.filter((v) => ids.includes(v.id))
      : findings.filter((v) => v.onset === null);
    for (const vertex of targets) {
      this.put({ ...vertex, onset });
    }
  }

  /** Annotated entities (a technician's submission, or the assistant's metadata). */
  entities(
    entities: readonly AnnotatedEntity[],
    source: MemorySource,
    messageId: string | null,
  ): string[] {
    const ids: string[] = [];
    const onsets: string[] = [];
    for (const entity of entities) {
      if (ONSET_CATEGORIES.has(entity.category)) {
        onsets.push(entity.extract.trim());
        continue;
      }
      const presence: Presence | undefined =
        typeof entity.presence === 'string' && PRESENCES.has(entity.presence)
          ? (entity.presence as Presence)
          : entity.negated === true
            ? 'deny'
            : undefined;
      const coded = codedConcepts(entity.concepts).filter((id) =>
        this.clinical.recogniser.lookup(id),
      );
      if (coded.length > 0) {
        for (const id of coded) {
          const added = this.concept(id, presence ?? 'endorse', source, messageId, entity.extract);
          if (added) {
            ids.push(added);
          }
        }
      } else {
        ids.push(...this.text(entity.extract, source, messageId, presence));
      }
    }
    for (const onset of onsets) {
      if (onset) {
        this.onset(onset, ids);
      }
    }
    return ids;
  }

  /** An answer to a slot of the intake (a technician's annotation or the assistant's memory). */
  answer(code: string, question: string | null, value: string, source: MemorySource): void {
    const mentions = this.text(value, source, null);
    this.put({
      id: `answer:${code}`,
      kind: 'answer',
      label: `${question ?? code.replaceAll('_', ' ')}: ${value}`,
      conceptId: null,
      presence: null,
      onset: null,
      source,
      data: { code, value, mentions },
    });
  }

  handover(reason: string, queue: string | null): void {
    this.put({
      id: HANDOVER,
      kind: 'handover',
      label: `Handed over: ${reason}`,
      conceptId: null,
      presence: null,
      onset: null,
      source: 'assistant',
      data: { reason, queue },
    });
  }

  /**
   * The conditions the differential considers for the findings so far (its top entries), in
   * place of those it considered before; conditions someone named stay.
   */
  consider(): void {
    const findings = [...this.vertices.values()].filter(
      (v) => v.kind === 'finding' && v.conceptId && v.presence !== 'unsure',
    );
    const prediction =
      findings.length > 0
        ? this.clinical.differential.diagnose(
            findings.map((f) => ({
              observation: f.conceptId ?? '',
              presence: f.presence ?? 'endorse',
            })),
          )
        : { inference: [] };
    const top = prediction.inference
      .filter((entry) => entry.associatedObservations.length > 0)
      .slice(0, CONSIDERED_CONDITIONS);
    const keep = new Set(top.map((entry) => conditionId(entry.conditionId)));
    for (const vertex of [...this.vertices.values()]) {
      if (vertex.kind === 'condition' && vertex.source === 'knowledge' && !keep.has(vertex.id)) {
        this.remove(vertex.id);
      }
    }
    for (const [rank, entry] of top.entries()) {
      const id = conditionId(entry.conditionId);
      const named = this.vertices.get(id);
      this.put({
        id,
        kind: 'condition',
        label: entry.condition,
        conceptId: entry.conditionId,
        presence: null,
        onset: null,
        source: named && named.source !== 'knowledge' ? named.source : 'knowledge',
        data: {
          considered: true,
          rank: rank + 1,
          probability: Math.round(entry.probability * 1000) / 1000,
          ...(entry.acuity ? { acuity: entry.acuity } : {}),
        },
      });
    }
  }

  /** The edges that follow from the vertices: who reports what, answers, and the KB's relations. */
  edges(): Edge[] {
    const edges: Edge[] = [];
    const vertices = [...this.vertices.values()];
    const has = (id: string) => this.vertices.has(id);
    if (!has(PATIENT)) {
      return edges;
    }
    for (const v of vertices) {
      if (v.kind === 'finding') {
        const rel =
          v.presence === 'deny' ? 'denies' : v.presence === 'unsure' ? 'unsure of' : 'reports';
        edges.push(edge(PATIENT, v.id, rel, v.source));
      } else if (v.kind === 'condition') {
        edges.push(edge(PATIENT, v.id, v.data.considered ? 'considered' : 'mentions', v.source));
      } else if (v.kind === 'answer') {
        edges.push(edge(PATIENT, v.id, 'answered', v.source));
        const mentions = Array.isArray(v.data.mentions) ? (v.data.mentions as string[]) : [];
        for (const target of mentions.filter(has)) {
          edges.push(edge(v.id, target, 'mentions', v.source));
        }
      } else if (v.kind === 'handover') {
        edges.push(edge(PATIENT, v.id, 'handed over', v.source));
      }
    }
    const conditions = new Set(
      vertices.filter((v) => v.kind === 'condition').map((v) => v.conceptId),
    );
    const findings = new Set(vertices.filter((v) => v.kind === 'finding').map((v) => v.conceptId));
    for (const r of this.clinical.items.relationships) {
      if (conditions.has(r.from) && findings.has(r.to)) {
        edges.push({
          ...edge(
            conditionId(r.from),
            findingId(r.to),
            r.correlation === 'Negative' ? 'argues against' : 'explains',
            'knowledge',
          ),
          data: { correlation: r.correlation, ...(r.weight ? { weight: r.weight } : {}) },
        });
      }
    }
    return edges;
  }
}

function edge(from: string, to: string, rel: string, source: MemorySource): Edge {
  return { id: `${from}>${rel}>${to}`, from, to, rel, source, data: {} };
}

/** The concept ids an entity's `concepts` name (`code` as a string or `{ code }`). */
function codedConcepts(concepts: unknown): string[] {
  if (!Array.isArray(concepts)) {
    return [];
  }
  return concepts.flatMap((c: unknown) => {
    if (typeof c !== 'object' || c === null) {
      return [];
    }
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string') {
      return [code];
    }
    if (typeof code === 'object' && code !== null) {
      const inner = (code as { code?: unknown }).code;
      return typeof inner === 'string' ? [inner] : [];
    }
    return [];
  });
}

/** The entities of a job's result or a message's metadata that have an extract and a category. */
export function entitiesOf(value: unknown): AnnotatedEntity[] {
  if (!Array.isArray(value)) {
    return [];
  }
  return value.filter(
    (e): e is AnnotatedEntity =>
      typeof e === 'object' &&
      e !== null &&
      typeof (e as { extract?: unknown }).extract === 'string' &&
      (e as { extract: string }).extract.trim().length > 0 &&
      typeof (e as { category?: unknown }).category === 'string',
  );
}
