/**
 * Links the authored concepts to the open ontologies in ../shared/data/sources (the Human Disease
 * Ontology, the Symptom Ontology and MeSH's signs and symptoms) by exact name, and writes what it
 * found to data/kb/ontology-links.json, which the build reads:
 *
 *   npm run kb:link [-- <sources folder>]
 *
 * A concept is linked when its canonical name or one of its aliases is, after normalising case,
 * accents and punctuation, the ontology term's label or an exact synonym. The build then records
 * the ontology id and cross-references as codes, takes the ontology's UMLS CUI where the authored
 * concept has none, and cites the ontology in the provenance; relationships the Disease
 * Ontology's disease-symptom report also states cite that pair. `source/link-overrides.ts` drops
 * wrong matches and adds the ones names cannot find. The open files are read, never copied.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { format } from 'prettier';
import type { Concept } from '@loopdesk/clinical/kb/format.ts';
import { mergeItems } from '@loopdesk/clinical/kb/merge.ts';
import {
  DO_SOURCE,
  importDoDiseaseSymptom,
  importDoXrefs,
  importHumanDo,
} from '@loopdesk/clinical/import/disease-ontology.ts';
import { MESH_SOURCE, importMeshSymptoms } from '@loopdesk/clinical/import/mesh.ts';
import { importObo, parseObo } from '@loopdesk/clinical/import/obo.ts';
import { normaliseText } from '@loopdesk/clinical/search/concept-search.ts';
import { compileKb, type OntologyLink, type OntologyLinks } from './compile.ts';
import { source } from './source/index.ts';
import { linkOverrides } from './source/link-overrides.ts';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const SOURCES = path.resolve(
  process.argv[2] ??
    [here('../../../shared/data/sources'), here('../../../../shared/data/sources')].find((dir) =>
      existsSync(dir),
    ) ??
    here('../../../shared/data/sources'),
);
const SYMP_SOURCE = 'Symptom Ontology';

function read(name: string): string {
  const file = path.join(SOURCES, name);
  if (!existsSync(file)) {
    console.error(`${file} is missing: pass the folder of the open source files`);
    process.exit(1);
  }
  return readFileSync(file, 'utf8');
}

/** Ontology concepts by normalised name (label first, then exact synonyms). */
function nameIndex(concepts: readonly Concept[], names: (c: Concept) => string[]) {
  const index = new Map<string, Concept[]>();
  for (const concept of concepts) {
    for (const name of names(concept)) {
      const key = normaliseText(name);
      const list = index.get(key) ?? [];
      if (!list.includes(concept)) {
        list.push(concept);
      }
      index.set(key, list);
    }
  }
  return index;
}

const cuisOf = (concept: Concept) =>
  concept.codes.filter((code) => code.system === 'UMLS').map((code) => code.code);

/** The link to an ontology concept; its CUI only when the ontology gives exactly one. */
const toLink = (sourceName: string, concept: Concept): OntologyLink => {
  const cuis = cuisOf(concept);
  return {
    source: sourceName,
    id: concept.id,
    label: concept.canonicalName,
    ...(cuis.length === 1 && cuis[0] !== undefined ? { cui: cuis[0] } : {}),
    codes: concept.codes.filter((code) => code.system !== 'UMLS'),
    // The ontology's other names (exact synonyms; MeSH's natural word order): the build adds
    // them to the concept's aliases, citing the ontology.
    ...(concept.aliases.length > 0 ? { synonyms: concept.aliases } : {}),
  };
};

async function main() {
  const diseases = mergeItems(
    importHumanDo(read('disease-ontology.HumanDO.tsv')),
    importDoXrefs(read('disease-ontology.allXREFinDO.tsv')),
  ).concepts;
  // Only EXACT synonyms name the same thing; broad and related ones would link wrongly.
  const symptoms = importObo(parseObo(read('symptom-ontology.symp.obo')), {
    source: SYMP_SOURCE,
    conceptClass: 'symptom',
    synonymScopes: ['EXACT'],
  }).concepts;
  const mesh = importMeshSymptoms(read('mesh.symptoms.tsv')).concepts;
  const pairs = importDoDiseaseSymptom(read('disease-ontology.disease-symptom.tsv'));

  const doIndex = nameIndex(diseases, (c) => [c.canonicalName]);
  const sympIndex = nameIndex(symptoms, (c) => [c.canonicalName, ...c.aliases]);
  const meshIndex = nameIndex(mesh, (c) => [c.canonicalName, ...c.aliases]);
  const byOntologyId = new Map([...diseases, ...symptoms, ...mesh].map((c) => [c.id, c] as const));

  const kb = compileKb(source, { concepts: {}, relationships: {} });
  const links: OntologyLinks = { concepts: {}, relationships: {} };
  const excluded = new Set(linkOverrides.exclude);
  const report: string[] = [];

  for (const concept of kb.items.concepts) {
    const indexes: [string, Map<string, Concept[]>][] =
      concept.class === 'condition'
        ? [[DO_SOURCE, doIndex]]
        : ['symptom', 'sign', 'observation'].includes(concept.class)
          ? [
              [SYMP_SOURCE, sympIndex],
              [MESH_SOURCE, meshIndex],
            ]
          : [];
    const found: OntologyLink[] = [];
    for (const [sourceName, index] of indexes) {
      for (const name of [concept.canonicalName, ...concept.aliases]) {
        const match = (index.get(normaliseText(name)) ?? []).find(
          (c) => !excluded.has(`${concept.id} ${c.id}`),
        );
        if (match) {
          found.push(toLink(sourceName, match));
          report.push(`${concept.id} '${name}' = ${match.id} '${match.canonicalName}'`);
          break;
        }
      }
    }
    for (const id of linkOverrides.include[concept.id] ?? []) {
      const match = byOntologyId.get(id);
      if (!match) {
        throw new Error(`link-overrides: ${concept.id} → ${id} is not in the open files`);
      }
      if (!found.some((link) => link.id === id)) {
        const sourceName = id.startsWith('DOID:')
          ? DO_SOURCE
          : id.startsWith('SYMP:')
            ? SYMP_SOURCE
            : MESH_SOURCE;
        found.push(toLink(sourceName, match));
        report.push(`${concept.id} (override) = ${match.id} '${match.canonicalName}'`);
      }
    }
    if (found.length > 0) {
      links.concepts[concept.id] = found;
      const cuis = [
        ...new Set(found.flatMap((link) => cuisOf(byOntologyId.get(link.id) ?? concept))),
      ];
      if (concept.cui !== undefined && cuis.length > 0 && !cuis.includes(concept.cui)) {
        report.push(`  CUI differs: authored ${concept.cui}, ontology ${cuis.join(', ')}`);
      }
    }
  }

  const pairSet = new Set(pairs.relationships.map((r) => `${r.from} ${r.to}`));
  for (const relationship of kb.items.relationships) {
    const from = (links.concepts[relationship.from] ?? []).filter((l) => l.id.startsWith('DOID:'));
    const to = (links.concepts[relationship.to] ?? []).filter((l) => l.id.startsWith('SYMP:'));
    const stated = from.flatMap((f) =>
      to.filter((t) => pairSet.has(`${f.id} ${t.id}`)).map((t) => `${f.id} > ${t.id}`),
    );
    if (stated.length > 0) {
      links.relationships[relationship.id] = stated;
    }
  }

  writeFileSync(
    here('ontology-links.json'),
    await format(JSON.stringify(links), { parser: 'json', printWidth: 100 }),
  );
  console.log(report.join('\n'));
  const linked = (prefix: string) =>
    Object.values(links.concepts).filter((l) => l.some((x) => x.id.startsWith(prefix))).length;
  console.log(
    `linked: ${linked('DOID:')} conditions to the Disease Ontology, ${linked('SYMP:')} observations to the Symptom Ontology, ${linked('MESH:')} to MeSH; ${Object.keys(links.relationships).length} relationships stated by DO disease-symptom`,
  );
}

await main();
