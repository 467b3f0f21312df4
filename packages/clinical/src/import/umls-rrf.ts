import type { Concept, ConceptClass, KbItems } from '../kb/format.ts';
import { emptyItems } from '../kb/format.ts';
import { splitLines } from './tsv.ts';

export const UMLS_SOURCE = 'UMLS Metathesaurus';

/**
 * Concept class for UMLS semantic types (TUI). A CUI takes the class of its first mapped type in
 * this table's order, so a CUI that is both a disease and a finding is a condition.
 */
export const SEMANTIC_TYPE_CLASSES: readonly (readonly [string, ConceptClass])[] = [
  ['T047', 'condition'], // Disease or Syndrome
  ['T191', 'condition'], // Neoplastic Process
  ['T048', 'condition'], // Mental or Behavioral Dysfunction
  ['T037', 'condition'], // Injury or Poisoning
  ['T019', 'condition'], // Congenital Abnormality
  ['T020', 'condition'], // Acquired Abnormality
  ['T190', 'condition'], // Anatomical Abnormality
  ['T184', 'symptom'], // Sign or Symptom
  ['T033', 'observation'], // Finding
  ['T034', 'labTest'], // Laboratory or Test Result
  ['T046', 'pathologicalProcess'], // Pathologic Function
  ['T121', 'medication'], // Pharmacologic Substance
  ['T200', 'medication'], // Clinical Drug
  ['T195', 'medication'], // Antibiotic
  ['T022', 'bodySystem'], // Body System
  ['T023', 'anatomicalLocation'], // Body Part, Organ, or Organ Component
  ['T029', 'anatomicalLocation'], // Body Location or Region
  ['T030', 'anatomicalLocation'], // Body Space or Junction
  ['T059', 'labTest'], // Laboratory Procedure
  ['T060', 'procedure'], // Diagnostic Procedure
  ['T061', 'procedure'], // Therapeutic or Preventive Procedure
  ['T074', 'device'], // Medical Device
];

export interface UmlsFiles {
  /** MRCONSO.RRF: CUI|LAT|TS|LUI|STT|SUI|ISPREF|AUI|SAUI|SCUI|SDUI|SAB|TTY|CODE|STR|SRL|SUPPRESS|CVF| */
  mrconso: string;
  /** MRSTY.RRF: CUI|TUI|STN|STY|ATUI|CVF| */
  mrsty?: string;
  /** MRREL.RRF: CUI1|AUI1|STYPE1|REL|CUI2|AUI2|STYPE2|RELA|RUI|SRUI|SAB|SL|RG|DIR|SUPPRESS|CVF| */
  mrrel?: string;
}

export interface UmlsImportOptions {
  /** Languages to keep (LAT), default ['ENG']. */
  languages?: readonly string[];
  /** Source vocabularies to keep (SAB); all when absent. */
  sources?: readonly string[];
  /** Keep CUIs whose semantic types map to no class, as `observation` (default false). */
  keepUnclassified?: boolean;
}

function rrfRows(text: string | undefined, minFields: number): string[][] {
  if (!text) {
    return [];
  }
  const rows: string[][] = [];
  splitLines(text).forEach((line, i) => {
    if (line.trim() === '') {
      return;
    }
    const fields = line.split('|');
    if (fields.length < minFields) {
      throw new Error(
        `RRF line ${i + 1}: expected at least ${minFields} fields, got ${fields.length}`,
      );
    }
    rows.push(fields);
  });
  return rows;
}

interface Atom {
  ts: string;
  stt: string;
  ispref: string;
  sab: string;
  code: string;
  str: string;
}

/** Rank of an atom as a preferred name: preferred term of the concept, then of its string. */
function preference(atom: Atom): number {
  return (atom.ts === 'P' ? 4 : 0) + (atom.stt === 'PF' ? 2 : 0) + (atom.ispref === 'Y' ? 1 : 0);
}

/**
 * Imports UMLS RRF tables: one concept per CUI (id `UMLS:<CUI>`), named by its preferred English
 * atom, the other strings as aliases, source codes as codes, class from MRSTY and `is_a` parents
 * from MRREL. Suppressed atoms (SUPPRESS other than N) are skipped.
 *
 * MRREL's REL is the relationship of the second concept to the first: `C1|…|PAR|C2` says C2 is
 * a parent of C1, and `C1|…|CHD|C2` says C2 is a child of C1.
 */
export function importUmlsRrf(files: UmlsFiles, options: UmlsImportOptions = {}): KbItems {
  const languages = new Set(options.languages ?? ['ENG']);
  const sources = options.sources ? new Set(options.sources) : undefined;

  const atoms = new Map<string, Atom[]>();
  for (const f of rrfRows(files.mrconso, 18)) {
    const [cui = '', lat = '', ts = '', , stt = '', , ispref = ''] = f;
    const sab = f[11] ?? '';
    const suppress = f[16] ?? '';
    if (
      !languages.has(lat) ||
      (sources && !sources.has(sab)) ||
      (suppress !== 'N' && suppress !== '')
    ) {
      continue;
    }
    const list = atoms.get(cui) ?? [];
    list.push({ ts, stt, ispref, sab, code: f[13] ?? '', str: f[14] ?? '' });
    atoms.set(cui, list);
  }

  const rank = new Map(SEMANTIC_TYPE_CLASSES.map(([tui], i) => [tui, i]));
  const classOf = new Map<string, { cls: ConceptClass; rank: number }>();
  for (const [cui = '', tui = ''] of rrfRows(files.mrsty, 4)) {
    const r = rank.get(tui);
    const entry = r === undefined ? undefined : SEMANTIC_TYPE_CLASSES[r];
    const current = classOf.get(cui);
    if (entry && r !== undefined && (!current || r < current.rank)) {
      classOf.set(cui, { cls: entry[1], rank: r });
    }
  }

  const concepts = new Map<string, Concept>();
  for (const [cui, list] of atoms) {
    const cls = classOf.get(cui)?.cls ?? (options.keepUnclassified ? 'observation' : undefined);
    if (!cls || list.length === 0) {
      continue;
    }
    const preferred = [...list].sort((a, b) => preference(b) - preference(a))[0] ?? list[0];
    const name = preferred?.str ?? cui;
    const seen = new Set([name.toLowerCase()]);
    const concept: Concept = {
      id: `UMLS:${cui}`,
      cui,
      canonicalName: name,
      aliases: [],
      class: cls,
      parents: [],
      bodySystems: [],
      anatomicalLocations: [],
      pathologicalProcesses: [],
      codes: [{ system: 'UMLS', code: cui }],
      provenance: [{ source: UMLS_SOURCE, reference: cui }],
    };
    for (const atom of list) {
      if (!seen.has(atom.str.toLowerCase())) {
        seen.add(atom.str.toLowerCase());
        concept.aliases.push(atom.str);
      }
      if (
        atom.code &&
        atom.code !== 'NOCODE' &&
        !concept.codes.some((c) => c.system === atom.sab && c.code === atom.code)
      ) {
        concept.codes.push({ system: atom.sab, code: atom.code });
      }
    }
    concepts.set(cui, concept);
  }

  for (const f of rrfRows(files.mrrel, 16)) {
    const [cui1 = '', , , rel = '', cui2 = ''] = f;
    const suppress = f[14] ?? '';
    if (suppress !== 'N' && suppress !== '') {
      continue;
    }
    const [child, parent] = rel === 'PAR' ? [cui1, cui2] : rel === 'CHD' ? [cui2, cui1] : [];
    const concept = child === undefined ? undefined : concepts.get(child);
    if (concept && parent && parent !== child && concepts.has(parent)) {
      const parentId = `UMLS:${parent}`;
      if (!concept.parents.includes(parentId)) {
        concept.parents.push(parentId);
      }
    }
  }
  return { ...emptyItems(), concepts: [...concepts.values()] };
}
