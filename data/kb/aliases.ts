import type { AliasSource, Concept } from '@loopdesk/clinical/kb/format.ts';
import type { PhraseRule } from '@loopdesk/clinical/kb/phrase-rules.ts';
import { normaliseText } from '@loopdesk/clinical/search/concept-search.ts';
import type { OntologyLinks } from './compile.ts';

export const LAY_PHRASE_SOURCE = 'Loopdesk lay phrase rules';
const AUTHORED_ALIAS = { source: 'Loopdesk authored', reference: 'general medical knowledge' };

/** An ontology name worth matching in chat: no inverted heading, code-like or tiny name. */
const usableSynonym = (name: string) =>
  name.trim().length >= 4 && !/[,()[\]\d]/u.test(name) && !/^[A-Z]{2,5}$/u.test(name.trim());

/**
 * Every concept's aliases with their source (`aliasSources`, format 1.2): the authored ones
 * ('Loopdesk authored'), the linked ontologies' other names (their label and exact synonyms,
 * citing the ontology id), and the phrases of the lay phrase rules (citing the rule's line). An
 * ontology name that is another concept's name is left out: it would be ambiguous.
 */
export function withAliasSources(
  concepts: readonly Concept[],
  links: OntologyLinks,
  rules: readonly PhraseRule[],
): Concept[] {
  const owners = new Map<string, Set<string>>();
  for (const concept of concepts) {
    for (const name of [concept.canonicalName, ...concept.aliases]) {
      const key = normaliseText(name);
      owners.set(key, (owners.get(key) ?? new Set()).add(concept.id));
    }
  }
  const known = new Set(concepts.map((c) => c.id));
  const unknown = rules.filter((r) => !known.has(r.conceptId));
  if (unknown.length > 0) {
    throw new Error(
      `lay phrase rules name unknown concepts: ${unknown.map((r) => `line ${r.line} ${r.conceptId}`).join(', ')}`,
    );
  }
  return concepts.map((concept) => {
    const names = new Set([concept.canonicalName, ...concept.aliases].map(normaliseText));
    const aliases = [...concept.aliases];
    const sources: AliasSource[] = concept.aliases.map((alias) => ({ alias, ...AUTHORED_ALIAS }));
    const add = (alias: string, source: string, reference: string) => {
      const key = normaliseText(alias);
      if (key === '' || names.has(key)) {
        return;
      }
      names.add(key);
      aliases.push(alias);
      sources.push({ alias, source, reference });
    };
    for (const link of links.concepts[concept.id] ?? []) {
      for (const name of [link.label, ...(link.synonyms ?? [])]) {
        const others = [...(owners.get(normaliseText(name)) ?? [])].filter(
          (id) => id !== concept.id,
        );
        if (usableSynonym(name) && others.length === 0) {
          add(name.toLowerCase() === name ? name : name.toLowerCase(), link.source, link.id);
        }
      }
    }
    for (const rule of rules.filter((r) => r.conceptId === concept.id)) {
      for (const phrase of rule.phrases) {
        add(phrase, LAY_PHRASE_SOURCE, `lay-phrases.txt line ${rule.line}: ${rule.pattern}`);
      }
    }
    return sources.length === 0 ? concept : { ...concept, aliases, aliasSources: sources };
  });
}
