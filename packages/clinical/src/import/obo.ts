import type { Concept, ConceptClass, KbItems } from '../kb/format.ts';
import { emptyItems } from '../kb/format.ts';
import { isCuiCode, xrefToCode } from './codes.ts';
import { splitLines } from './tsv.ts';

/** One OBO stanza: its type (`Term`, `Typedef`) and its tag-value pairs in file order. */
export interface OboStanza {
  type: string;
  tags: { tag: string; value: string }[];
}

/** A parsed OBO document: header tags and stanzas. */
export interface OboDocument {
  header: Record<string, string[]>;
  stanzas: OboStanza[];
}

/**
 * Strips an OBO 1.2 trailing `! comment` and `{qualifier}` block from a value, leaving quoted
 * strings intact (a `!` inside quotes is text, and `\` escapes the next character).
 */
export function stripOboValue(value: string): string {
  let inQuotes = false;
  let qualifierAt = -1;
  let end = value.length;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '\\') {
      i++;
    } else if (ch === '"') {
      inQuotes = !inQuotes;
    } else if (!inQuotes && ch === '{' && qualifierAt < 0) {
      qualifierAt = i;
    } else if (!inQuotes && ch === '!') {
      end = i;
      break;
    }
  }
  const kept = value.slice(0, end).trim();
  if (qualifierAt >= 0 && qualifierAt < kept.length && kept.endsWith('}')) {
    return kept.slice(0, qualifierAt).trim();
  }
  return kept;
}

/** Parses OBO 1.2 text into a header and stanzas. */
export function parseObo(text: string): OboDocument {
  const doc: OboDocument = { header: {}, stanzas: [] };
  let current: OboStanza | undefined;
  for (const raw of splitLines(text)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('!')) {
      continue;
    }
    const stanza = /^\[([^\]]+)\]$/.exec(line);
    if (stanza?.[1] !== undefined) {
      current = { type: stanza[1], tags: [] };
      doc.stanzas.push(current);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) {
      continue;
    }
    const tag = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (current) {
      current.tags.push({ tag, value });
    } else {
      (doc.header[tag] ??= []).push(value);
    }
  }
  return doc;
}

/** Reads the leading quoted string of an OBO value (`"stomach cramp" EXACT []`) and its remainder. */
export function readQuoted(value: string): { text: string; rest: string } | undefined {
  if (!value.startsWith('"')) {
    return undefined;
  }
  let text = '';
  for (let i = 1; i < value.length; i++) {
    const ch = value[i];
    if (ch === '\\' && i + 1 < value.length) {
      const next = value[i + 1];
      text += next === 'n' ? '\n' : next === 't' ? '\t' : (next ?? '');
      i++;
    } else if (ch === '"') {
      return { text, rest: value.slice(i + 1).trim() };
    } else {
      text += ch;
    }
  }
  return undefined;
}

/** The synonym scopes of OBO 1.2. */
export type SynonymScope = 'EXACT' | 'BROAD' | 'NARROW' | 'RELATED';

export interface OboImportOptions {
  /** Source name written into provenance. */
  source: string;
  /** Class given to every imported term. */
  conceptClass: ConceptClass;
  /** Synonym scopes that become aliases (default: all four). */
  synonymScopes?: readonly SynonymScope[];
}

/**
 * Imports the terms of an OBO 1.2 ontology as concepts: `name` → canonicalName, synonyms →
 * aliases, `is_a` → parents, `def` → definition, `UMLS_CUI` xrefs → cui and codes, other prefixed
 * xrefs → codes (atom ids such as `UMLS_ICD9CM_2005_AUI` are dropped). Obsolete terms are skipped.
 */
export function importObo(text: string | OboDocument, options: OboImportOptions): KbItems {
  const doc = typeof text === 'string' ? parseObo(text) : text;
  const scopes = new Set<string>(options.synonymScopes ?? ['EXACT', 'BROAD', 'NARROW', 'RELATED']);
  const items = emptyItems();
  for (const stanza of doc.stanzas) {
    if (stanza.type !== 'Term') {
      continue;
    }
    const values = (tag: string): string[] =>
      stanza.tags.filter((t) => t.tag === tag).map((t) => t.value);
    const id = values('id')[0]?.trim();
    const name = values('name')[0]?.trim();
    if (!id || !name || values('is_obsolete').some((v) => stripOboValue(v) === 'true')) {
      continue;
    }
    const concept: Concept = {
      id,
      canonicalName: name,
      aliases: [],
      class: options.conceptClass,
      parents: [],
      bodySystems: [],
      anatomicalLocations: [],
      pathologicalProcesses: [],
      codes: [],
      provenance: [{ source: options.source, reference: id }],
    };
    const definition = readQuoted(values('def')[0] ?? '');
    if (definition) {
      concept.definition = definition.text;
    }
    const seen = new Set([name.toLowerCase()]);
    for (const value of values('synonym')) {
      const synonym = readQuoted(value);
      const scope = synonym?.rest.split(/\s+/)[0] ?? 'RELATED';
      const alias = synonym?.text.trim();
      if (alias && scopes.has(scope) && !seen.has(alias.toLowerCase())) {
        seen.add(alias.toLowerCase());
        concept.aliases.push(alias);
      }
    }
    for (const value of values('is_a')) {
      const parent = stripOboValue(value);
      if (parent && !concept.parents.includes(parent)) {
        concept.parents.push(parent);
      }
    }
    for (const value of values('xref')) {
      const ref = stripOboValue(value).split(/\s+/)[0] ?? '';
      const code = xrefToCode(ref);
      if (!code || code.system.endsWith('_AUI')) {
        continue;
      }
      if (isCuiCode(code)) {
        concept.cui ??= code.code;
      }
      if (!concept.codes.some((c) => c.system === code.system && c.code === code.code)) {
        concept.codes.push(code);
      }
    }
    items.concepts.push(concept);
  }
  return items;
}

/** Imports the Symptom Ontology (`symp.obo`): every live term becomes a `symptom` concept. */
export function importSymptomOntology(text: string, source = 'Symptom Ontology'): KbItems {
  const doc = parseObo(text);
  const version = doc.header['data-version']?.[0];
  const named = version ? `${source} (${version})` : source;
  return importObo(doc, { source: named, conceptClass: 'symptom' });
}
