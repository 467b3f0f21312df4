import type { Concept, KbItems } from '../kb/format.ts';
import { emptyItems } from '../kb/format.ts';
import { column, parseTsv } from './tsv.ts';

export const MESH_SOURCE = 'MeSH Signs and Symptoms (dhimmel/mesh)';

/**
 * MeSH writes many headings inverted ('Abdomen, Acute', 'Pain, Referred'). For a single comma
 * the natural order ('Acute Abdomen') is what people type, so it becomes an alias.
 */
export function uninvertMeshName(name: string): string | undefined {
  const parts = name.split(', ');
  if (parts.length !== 2 || !parts[0] || !parts[1]) {
    return undefined;
  }
  return `${parts[1]} ${parts[0]}`;
}

/**
 * Imports `symptoms.tsv` (`mesh_id`, `mesh_name`, `in_hsdn`) as `observation` concepts with id
 * `MESH:<descriptor>` and a MESH code. The headings mix signs, symptoms and syndromes, so the
 * general class is used.
 */
export function importMeshSymptoms(text: string): KbItems {
  const concepts: Concept[] = [];
  parseTsv(text).forEach((row, i) => {
    const meshId = column(row, 'mesh_id', i + 2);
    const name = column(row, 'mesh_name', i + 2);
    if (!meshId || !name) {
      return;
    }
    const natural = uninvertMeshName(name);
    concepts.push({
      id: `MESH:${meshId}`,
      canonicalName: name,
      aliases: natural ? [natural] : [],
      class: 'observation',
      parents: [],
      bodySystems: [],
      anatomicalLocations: [],
      pathologicalProcesses: [],
      codes: [{ system: 'MESH', code: meshId }],
      provenance: [{ source: MESH_SOURCE, reference: meshId }],
    });
  });
  return { ...emptyItems(), concepts };
}
