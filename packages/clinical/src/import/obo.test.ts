import { beforeAll, describe, expect, it } from 'vitest';
import { checkIntegrity } from '../kb/integrity.ts';
import { KbItems } from '../kb/format.ts';
import type { Concept } from '../kb/format.ts';
import { HAVE_SOURCES, readSource } from '../testing/sources.ts';
import { importSymptomOntology, parseObo, readQuoted, stripOboValue } from './obo.ts';

const SAMPLE = `format-version: 1.2
data-version: releases/2026-07-30/symp.obo
ontology: symp

[Term]
id: SYMP:0000462
name: symptom

[Term]
id: SYMP:0000459
name: digestive system symptom
is_a: SYMP:0000462 ! symptom

[Term]
id: SYMP:0000570
name: diarrhea
def: "Frequent \\"loose\\" stools! Often fluid." [url:http\\://example.org]
synonym: "the runs" EXACT []
synonym: "loose bowels" RELATED [url:https\\://example.org/a!b]
synonym: "Diarrhea" EXACT []
xref: UMLS_CUI:C0011991
xref: ICD9CM_2005:787.91
xref: UMLS_ICD9CM_2005_AUI:A0048148
is_a: SYMP:0000459 {source="x"} ! digestive system symptom

[Term]
id: SYMP:0000003
name: obsolete acute enteritis in newborns
is_obsolete: true

[Typedef]
id: part_of
name: part_of
`;

describe('OBO 1.2 parsing', () => {
  it('strips trailing comments and qualifiers but not text inside quotes', () => {
    expect(stripOboValue('SYMP:0000459 {source="x"} ! digestive system symptom')).toBe(
      'SYMP:0000459',
    );
    expect(stripOboValue('"a ! b" EXACT [] ! note')).toBe('"a ! b" EXACT []');
  });

  it('unescapes quoted strings', () => {
    expect(readQuoted('"say \\"ah\\"" EXACT []')).toEqual({ text: 'say "ah"', rest: 'EXACT []' });
  });

  it('separates header tags from stanzas', () => {
    const doc = parseObo(SAMPLE);
    expect(doc.header['format-version']).toEqual(['1.2']);
    expect(doc.stanzas.map((s) => s.type)).toEqual(['Term', 'Term', 'Term', 'Term', 'Typedef']);
  });

  it('turns live terms into symptom concepts with aliases, parents, CUI and provenance', () => {
    const { concepts } = importSymptomOntology(SAMPLE);
    expect(concepts.map((c) => c.id)).toEqual(['SYMP:0000462', 'SYMP:0000459', 'SYMP:0000570']);
    expect(concepts[2]).toEqual({
      id: 'SYMP:0000570',
      cui: 'C0011991',
      canonicalName: 'diarrhea',
      definition: 'Frequent "loose" stools! Often fluid.',
      aliases: ['the runs', 'loose bowels'],
      class: 'symptom',
      parents: ['SYMP:0000459'],
      bodySystems: [],
      anatomicalLocations: [],
      pathologicalProcesses: [],
      codes: [
        { system: 'UMLS', code: 'C0011991' },
        { system: 'ICD9CM_2005', code: '787.91' },
      ],
      provenance: [
        { source: 'Symptom Ontology (releases/2026-07-30/symp.obo)', reference: 'SYMP:0000570' },
      ],
    });
  });
});

describe.skipIf(!HAVE_SOURCES)('Symptom Ontology release (shared/data/sources)', () => {
  let concepts: Concept[] = [];
  const byId = (id: string): Concept | undefined => concepts.find((c) => c.id === id);

  beforeAll(() => {
    concepts = importSymptomOntology(readSource('symptom-ontology.symp.obo')).concepts;
  });

  it('imports every live term: 1,020 [Term] stanzas less 125 obsolete (README: about 900)', () => {
    expect(concepts).toHaveLength(895);
    expect(concepts.some((c) => c.canonicalName.startsWith('obsolete '))).toBe(false);
  });

  it('validates against the format and keeps is_a parents inside the ontology', () => {
    expect(KbItems.safeParse({ concepts }).success).toBe(true);
    expect(
      checkIntegrity({ concepts, relationships: [], complications: [], questions: [] }),
    ).toEqual([]);
  });

  it('reads diarrhea with its synonyms, CUI and parent', () => {
    expect(byId('SYMP:0000570')).toMatchObject({
      canonicalName: 'diarrhea',
      cui: 'C0011991',
      parents: ['SYMP:0000146'],
    });
    expect(byId('SYMP:0000146')).toMatchObject({
      canonicalName: 'feces and droppings symptom',
      parents: ['SYMP:0000459'],
    });
    expect(byId('SYMP:0000570')?.aliases).toEqual(
      expect.arrayContaining(['diarrhoea', 'loose bowels', 'the runs']),
    );
  });

  it('reads abdominal pain under pain, and the root symptom with no parent', () => {
    expect(byId('SYMP:0000457')).toMatchObject({
      canonicalName: 'abdominal pain',
      cui: 'C0000737',
      parents: ['SYMP:0000099'],
    });
    expect(byId('SYMP:0000462')?.parents).toEqual([]);
    expect(byId('SYMP:0000001')?.aliases).toEqual(['stomach cramp']);
  });

  it('records a CUI for the 175 live terms with a UMLS_CUI xref (178 xrefs, 3 on obsolete terms)', () => {
    expect(concepts.filter((c) => c.cui !== undefined)).toHaveLength(175);
  });
});
