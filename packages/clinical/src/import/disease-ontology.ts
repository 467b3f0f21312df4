import type { Concept, ConceptClass, KbItems } from '../kb/format.ts';
import { emptyItems } from '../kb/format.ts';
import { isCuiCode, xrefToCode } from './codes.ts';
import { column, parseTsv } from './tsv.ts';

export const DO_SOURCE = 'Human Disease Ontology';
export const DO_SYMPTOM_BASIS = 'DO disease-symptom';

function conditionStub(id: string, name: string, reference: string): Concept {
  return {
    id,
    canonicalName: name,
    aliases: [],
    class: 'condition',
    parents: [],
    bodySystems: [],
    anatomicalLocations: [],
    pathologicalProcesses: [],
    codes: [],
    provenance: [{ source: DO_SOURCE, reference }],
  };
}

/**
 * Imports `HumanDO.tsv` (`id`, `label`, `subClassOf`) as condition concepts. A disease with
 * several parents has one row per parent. The report names parents by label, so parents are
 * resolved through the labels in the same file; the root ('disease') has no row and is dropped.
 */
export function importHumanDo(text: string): KbItems {
  const rows = parseTsv(text);
  const byId = new Map<string, Concept>();
  const idByLabel = new Map<string, string>();
  const parentLabels = new Map<string, string[]>();
  rows.forEach((row, i) => {
    const id = column(row, 'id', i + 2);
    const label = column(row, 'label', i + 2);
    const parent = column(row, 'subClassOf', i + 2);
    if (!byId.has(id)) {
      byId.set(id, conditionStub(id, label, `${id} (HumanDO.tsv)`));
      idByLabel.set(label, id);
    }
    if (parent) {
      const list = parentLabels.get(id) ?? [];
      list.push(parent);
      parentLabels.set(id, list);
    }
  });
  for (const [id, labels] of parentLabels) {
    const concept = byId.get(id);
    for (const label of labels) {
      const parentId = idByLabel.get(label);
      if (concept && parentId && !concept.parents.includes(parentId)) {
        concept.parents.push(parentId);
      }
    }
  }
  return { ...emptyItems(), concepts: [...byId.values()] };
}

/**
 * Imports `allXREFinDO.tsv` (`id`, `label`, `xref`): one concept per DOID carrying its codes, and
 * its first UMLS CUI as `cui`. Merge with `importHumanDo` output (`mergeItems`) to get one concept.
 */
export function importDoXrefs(text: string): KbItems {
  const byId = new Map<string, Concept>();
  parseTsv(text).forEach((row, i) => {
    const id = column(row, 'id', i + 2);
    const code = xrefToCode(column(row, 'xref', i + 2));
    let concept = byId.get(id);
    if (!concept) {
      concept = conditionStub(id, column(row, 'label', i + 2), `${id} (allXREFinDO.tsv)`);
      byId.set(id, concept);
    }
    if (!code) {
      return;
    }
    if (isCuiCode(code)) {
      concept.cui ??= code.code;
    }
    if (!concept.codes.some((c) => c.system === code.system && c.code === code.code)) {
      concept.codes.push(code);
    }
  });
  return { ...emptyItems(), concepts: [...byId.values()] };
}

/**
 * Imports `disease-symptom.tsv` (`disease_id`, `disease_label`, `symptom_id`, `symptom_label`)
 * as unweighted Positive condition → symptom relationships with basis 'DO disease-symptom', and
 * stub concepts for both ends so the result holds together on its own.
 */
export function importDoDiseaseSymptom(
  text: string,
  symptomClass: ConceptClass = 'symptom',
): KbItems {
  const items = emptyItems();
  const concepts = new Map<string, Concept>();
  const edges = new Set<string>();
  parseTsv(text).forEach((row, i) => {
    const line = i + 2;
    const from = column(row, 'disease_id', line);
    const to = column(row, 'symptom_id', line);
    const reference = `${from}\t${to} (disease-symptom.tsv)`;
    if (!concepts.has(from)) {
      concepts.set(from, conditionStub(from, column(row, 'disease_label', line), reference));
    }
    if (!concepts.has(to)) {
      concepts.set(to, {
        ...conditionStub(to, column(row, 'symptom_label', line), reference),
        class: symptomClass,
      });
    }
    const id = `${from}>${to}`;
    if (edges.has(id)) {
      return;
    }
    edges.add(id);
    items.relationships.push({
      id,
      from,
      to,
      correlation: 'Positive',
      basis: DO_SYMPTOM_BASIS,
      provenance: [{ source: DO_SOURCE, reference }],
    });
  });
  items.concepts = [...concepts.values()];
  return items;
}
