import type { Concept } from '@loopdesk/clinical/kb/format.ts';
import type { Pipeline, PipelineStep } from '@loopdesk/contracts/async-jobs.ts';
import type { Knowledge } from '../knowledge/knowledge.ts';
import type { NewTask } from './service.ts';
import { PIPELINES } from './pipelines.ts';

/** Facts of the knowledge base about a condition, as a task's `condition`. */
export function conditionFacts(knowledge: Knowledge, concept: Concept): Record<string, unknown> {
  const { items } = knowledge.kb;
  const observations = items.relationships
    .filter((r) => r.from === concept.id)
    .flatMap((r) => {
      const target = knowledge.byId.get(r.to);
      return target
        ? [
            {
              id: r.id,
              name: target.canonicalName,
              cui: target.cui ?? null,
              observationClass: target.class,
              correlation: r.correlation,
              weight: typeof r.weight === 'string' ? r.weight : 'Medium',
            },
          ]
        : [];
    });
  const complications = items.complications
    .filter((c) => c.condition === concept.id)
    .map((c) => ({
      id: c.id,
      name: c.name,
      cui: (c.concept && knowledge.byId.get(c.concept)?.cui) ?? null,
      acuity: c.acuity,
    }));
  return {
    conceptId: concept.id,
    name: concept.canonicalName,
    cui: concept.cui ?? null,
    acuity: concept.acuity ?? null,
    observations,
    complications,
  };
}

/** The KB condition a typed name or CUI names, if any. */
export function findCondition(
  knowledge: Knowledge,
  name: string,
  cui: string | null,
): Concept | undefined {
  const lower = name.trim().toLowerCase();
  return knowledge.kb.items.concepts.find(
    (c) =>
      c.class === 'condition' &&
      ((cui !== null && c.cui === cui) ||
        c.canonicalName.toLowerCase() === lower ||
        c.aliases.some((a) => a.toLowerCase() === lower)),
  );
}

const REFERENCE = 'Loopdesk knowledge base';

/** MedlinePlus (US National Library of Medicine) search for a condition: its treatment pages. */
export function medlinePlusSearch(condition: string): string {
  return `https://vsearch.nlm.nih.gov/vivisimo/cgi-bin/query-meta?v%3Aproject=medlineplus&v%3Asources=medlineplus-bundle&query=${encodeURIComponent(condition)}`;
}

/** The medications the KB lists for a condition, as a medications task's items (treatment ids). */
export function medicationsOf(knowledge: Knowledge, c: Concept): { id: string; text: string }[] {
  return (knowledge.kb.items.treatments ?? [])
    .filter((t) => t.condition === c.id)
    .map((t) => ({
      id: t.id,
      text: knowledge.byId.get(t.medication)?.canonicalName ?? t.medication,
    }));
}

/** A medications approval task of a KB condition: its medications and where to check them. */
export function medicationsTask(knowledge: Knowledge, c: Concept) {
  return {
    data: {
      condition: c.canonicalName,
      cui: c.cui ?? null,
      reference: medlinePlusSearch(c.canonicalName),
    },
    condition: { conceptId: c.id, name: c.canonicalName, medications: medicationsOf(knowledge, c) },
  };
}

/**
 * A symptoms approval task of a KB condition: the signs and symptoms that suggest it, by
 * relationship id (what the write-back removes).
 */
export function symptomsTask(knowledge: Knowledge, c: Concept) {
  const name = (id: string) => knowledge.byId.get(id)?.canonicalName ?? id;
  return {
    data: { condition: c.canonicalName, cui: c.cui ?? null, reference: REFERENCE },
    condition: {
      conceptId: c.id,
      name: c.canonicalName,
      symptoms: knowledge.kb.items.relationships
        .filter(
          (r) =>
            r.from === c.id &&
            r.correlation === 'Positive' &&
            ['symptom', 'sign'].includes(knowledge.byId.get(r.to)?.class ?? ''),
        )
        .map((r) => ({ id: r.id, text: name(r.to) })),
    },
  };
}

/** Realistic demo tasks, two in every step of every pipeline, built from the knowledge base. */
export function demoTasks(knowledge: Knowledge): NewTask[] {
  const { items } = knowledge.kb;
  const name = (id: string) => knowledge.byId.get(id)?.canonicalName ?? id;
  const conditions = items.concepts.filter(
    (c) => c.class === 'condition' && items.relationships.some((r) => r.from === c.id),
  );
  const withComplications = conditions.filter((c) =>
    items.complications.some((x) => x.condition === c.id),
  );
  const symptomsOf = (c: Concept) =>
    items.relationships
      .filter((r) => r.from === c.id && r.correlation === 'Positive')
      .map((r) => knowledge.byId.get(r.to))
      .filter(
        (o): o is Concept => o !== undefined && (o.class === 'symptom' || o.class === 'sign'),
      );
  const pick = <T>(list: readonly T[], index: number): T => {
    const item = list[index % list.length];
    if (item === undefined) {
      throw new Error('the knowledge base has no conditions to seed async tasks from');
    }
    return item;
  };

  /**
   * "For three days now: {a}, and {b}." with the entities' offsets. The symptoms are the patient's
   * words (a KB alias: a noun or a clause), so the frame reads right with either.
   */
  const complaint = (c: Concept, withConcepts: boolean, normalised: boolean) => {
    const [a, b] = symptomsOf(c);
    const parts = [a, b].filter((o): o is Concept => o !== undefined);
    let text = 'For three days now: ';
    const entities = parts.map((o, i) => {
      if (i > 0) {
        text += ', and ';
      }
      const extract = o.aliases[0] ?? o.canonicalName;
      const start = text.length;
      text += extract;
      return {
        id: `e${i + 1}`,
        start,
        end: start + extract.length,
        extract,
        category: i === 0 ? 'Symptom' : 'Associated symptom',
        conceptId: withConcepts ? o.id : null,
        conceptName: withConcepts ? o.canonicalName : null,
        checked: false,
        modified: false,
        added: false,
        ...(normalised ? { state: 'NORMALISED' } : {}),
      };
    });
    text += '.';
    return { text, entities };
  };

  const conversation = (c: Concept) =>
    symptomsOf(c)
      .slice(0, 4)
      .map((o) => ({
        question: `Do you have ${o.canonicalName}?`,
        text: `Yes, ${o.aliases[0] ?? o.canonicalName}.`,
      }));

  const locations = (c: Concept) => {
    const items = (ids: readonly string[]) =>
      ids.map((id) => ({ display: name(id), bid: id, code: knowledge.byId.get(id)?.cui ?? null }));
    return {
      pathologicalProcesses: items(c.pathologicalProcesses),
      bodySystems: items(c.bodySystems),
      anatomicalLocations: items(c.anatomicalLocations),
    };
  };

  const tasks: NewTask[] = [];
  let n = 0;
  const base = Date.now() - 3 * 3_600_000;
  const add = (
    pipeline: Pipeline,
    step: PipelineStep,
    content: Omit<NewTask, 'pipeline' | 'step'>,
  ) => {
    tasks.push({
      pipeline,
      step,
      createdOn: new Date(base + n++ * 60_000),
      metadata: { source: 'demo' },
      ...content,
    });
  };

  for (const pipeline of PIPELINES) {
    pipeline.definition.main.steps.forEach((step, stepIndex) => {
      for (let copy = 0; copy < 2; copy++) {
        const i = pipeline.id * 7 + stepIndex * 2 + copy;
        const c = pick(conditions, i);
        const later = stepIndex > 0;
        switch (pipeline.type) {
          case 'text.rephrase': {
            const q = pick(items.questions, i);
            const obs = q.observations.map(name);
            add(pipeline, step, {
              data: {
                text: q.content,
                context: `Asked about ${obs.join(', ')}`,
                ...(later
                  ? {
                      rephrases: [
                        `Have you noticed any ${obs[0] ?? 'change'} lately?`,
                        `Tell me if you have had ${obs.join(' or ')}.`,
                      ],
                    }
                  : {}),
              },
            });
            break;
          }
          case 'text.annotation':
          case 'entity.normalisation': {
            // An annotator picks the concept of a symptom (spec 3 §2), so annotations awaiting
            // approval have one; a normalisation job starts without and is approved with them.
            const normalised = pipeline.type === 'entity.normalisation' && later;
            const { text, entities } = complaint(c, later, normalised);
            add(pipeline, step, {
              data: { text, context: 'What brings you in today?' },
              annotations: {
                entities: pipeline.type === 'text.annotation' && !later ? [] : entities,
              },
            });
            break;
          }
          case 'condition.observations':
          case 'condition.complications': {
            const concept =
              pipeline.type === 'condition.complications' ? pick(withComplications, i) : c;
            const facts = conditionFacts(knowledge, concept);
            add(pipeline, step, {
              data: {
                condition: concept.canonicalName,
                reference: REFERENCE,
                notes: later ? 'Seeded from the knowledge base.' : '',
                cui: concept.cui ?? null,
              },
              // As `_add_task` makes them: the condition's KB facts, so every step shows what
              // the knowledge base already holds.
              condition: facts,
            });
            break;
          }
          case 'observation.questions': {
            const o = pick(
              items.concepts.filter((x) => x.class === 'symptom'),
              i,
            );
            const known = items.questions.filter((q) => q.observations.includes(o.id));
            add(pipeline, step, {
              data: {
                observation: o.canonicalName,
                cui: o.cui ?? null,
                class: o.class,
                display: o.canonicalName,
                ...(later
                  ? {
                      questions: [
                        ...known.map((q) => ({ id: q.id, text: q.content })),
                        { id: `${o.id}/q1`, text: `Have you had ${o.canonicalName}?` },
                        { id: `${o.id}/q2`, text: `When did the ${o.canonicalName} start?` },
                      ],
                    }
                  : {}),
              },
            });
            break;
          }
          case 'clinical.location':
            add(pipeline, step, {
              data: { condition: c.canonicalName, cui: c.cui ?? null, display: c.canonicalName },
              locations: later
                ? locations(c)
                : { pathologicalProcesses: [], bodySystems: [], anatomicalLocations: [] },
            });
            break;
          case 'clinical.differential':
          case 'conversation.annotation':
            add(pipeline, step, {
              data: {
                age: 20 + ((i * 7) % 50),
                gender: i % 2 === 0 ? 'female' : 'male',
                conversation: conversation(c),
                // The condition behind the scripted answers, for checking the ranking later.
                ...(pipeline.type === 'clinical.differential'
                  ? {}
                  : { condition: c.canonicalName }),
              },
            });
            break;
          case 'condition.medications':
            // Conditions the KB lists medications for: the reviewer checks them against the
            // reference, strikes or adds (data/kb/source/medications.ts).
            add(
              pipeline,
              step,
              medicationsTask(
                knowledge,
                pick(
                  conditions.filter((x) => medicationsOf(knowledge, x).length > 0),
                  i,
                ),
              ),
            );
            break;
          case 'condition.symptoms':
            add(pipeline, step, symptomsTask(knowledge, c));
            break;
        }
      }
    });
  }
  return tasks;
}
