import { beforeAll, describe, expect, it } from 'vitest';
import type { Concept, KbItems } from '../kb/format.ts';
import { KbItems as KbItemsSchema } from '../kb/format.ts';
import { checkIntegrity } from '../kb/integrity.ts';
import { mergeItems } from '../kb/merge.ts';
import { HAVE_SOURCES, readSource } from '../testing/sources.ts';
import { importSymptomOntology } from './obo.ts';
import {
  DO_SYMPTOM_BASIS,
  importDoDiseaseSymptom,
  importDoXrefs,
  importHumanDo,
} from './disease-ontology.ts';
import { parseTsv } from './tsv.ts';

const HUMAN_DO = [
  'id\tlabel\tsubClassOf',
  '"DOID:1176"\t"bronchial disease"\t"lower respiratory tract disease"',
  '"DOID:2841"\t"asthma"\t"bronchial disease"',
  '"DOID:13241"\t"Behcet\'s disease"\t"autoimmune disease"',
  '"DOID:13241"\t"Behcet\'s disease"\t"vasculitis"',
  '"DOID:865"\t"vasculitis"\t"disease"',
].join('\n');

const XREFS = [
  'id\tlabel\txref',
  '"DOID:2841"\t"asthma"\t"ICD10CM:J45"',
  '"DOID:2841"\t"asthma"\t"SNOMEDCT_US_2025_09_01:195967001"',
  '"DOID:2841"\t"asthma"\t"UMLS_CUI:C0004096"',
].join('\n');

describe('Disease Ontology reports', () => {
  it('parses quoted TSV, doubling quotes inside fields', () => {
    expect(parseTsv('a\tb\n"x ""y"""\tz\n')).toEqual([{ a: 'x "y"', b: 'z' }]);
  });

  it('makes one condition per DOID and resolves parents by label', () => {
    const { concepts } = importHumanDo(HUMAN_DO);
    expect(concepts.map((c) => [c.id, c.parents])).toEqual([
      ['DOID:1176', []],
      ['DOID:2841', ['DOID:1176']],
      ['DOID:13241', ['DOID:865']],
      ['DOID:865', []],
    ]);
    expect(concepts[1]).toMatchObject({ canonicalName: 'asthma', class: 'condition' });
  });

  it('reads cross-references as codes and the UMLS CUI as cui, dropping SNOMED release dates', () => {
    const [asthma] = importDoXrefs(XREFS).concepts;
    expect(asthma?.cui).toBe('C0004096');
    expect(asthma?.codes).toEqual([
      { system: 'ICD10CM', code: 'J45' },
      { system: 'SNOMEDCT_US', code: '195967001' },
      { system: 'UMLS', code: 'C0004096' },
    ]);
  });

  it('turns disease-symptom pairs into unweighted relationships with their basis', () => {
    const items = importDoDiseaseSymptom(
      'disease_id\tdisease_label\tsymptom_id\tsymptom_label\nDOID:2841\tasthma\tSYMP:0000614\twheezing\n',
    );
    expect(items.relationships).toEqual([
      {
        id: 'DOID:2841>SYMP:0000614',
        from: 'DOID:2841',
        to: 'SYMP:0000614',
        correlation: 'Positive',
        basis: DO_SYMPTOM_BASIS,
        provenance: [
          {
            source: 'Human Disease Ontology',
            reference: 'DOID:2841\tSYMP:0000614 (disease-symptom.tsv)',
          },
        ],
      },
    ]);
    expect(checkIntegrity(items)).toEqual([]);
  });

  it('names the line when a column is missing', () => {
    expect(() => importHumanDo('id\tname\n"DOID:1"\t"x"\n')).toThrow("line 2: no column 'label'");
  });
});

describe.skipIf(!HAVE_SOURCES)('Disease Ontology release (shared/data/sources)', () => {
  let diseases: KbItems;
  let pairs: KbItems;
  let xrefRows = 0;
  const byId = (id: string): Concept | undefined => diseases.concepts.find((c) => c.id === id);

  beforeAll(() => {
    const humanDo = readSource('disease-ontology.HumanDO.tsv');
    const xrefs = readSource('disease-ontology.allXREFinDO.tsv');
    xrefRows = parseTsv(xrefs).length;
    diseases = mergeItems(importHumanDo(humanDo), importDoXrefs(xrefs));
    pairs = importDoDiseaseSymptom(readSource('disease-ontology.disease-symptom.tsv'));
  });

  it('reads the row counts the README gives', () => {
    expect(parseTsv(readSource('disease-ontology.HumanDO.tsv'))).toHaveLength(12_296);
    expect(xrefRows).toBe(39_264);
  });

  it('makes one condition per DOID: 12,296 rows hold 12,246 diseases', () => {
    expect(importHumanDo(readSource('disease-ontology.HumanDO.tsv')).concepts).toHaveLength(12_246);
    expect(KbItemsSchema.safeParse(diseases).success).toBe(true);
  });

  it('knows asthma: its CUI, ICD-10-CM code and parent', () => {
    expect(byId('DOID:2841')).toMatchObject({
      canonicalName: 'asthma',
      cui: 'C0004096',
      parents: ['DOID:1176'],
    });
    expect(byId('DOID:2841')?.codes).toContainEqual({ system: 'ICD10CM', code: 'J45' });
    expect(byId('DOID:1176')?.canonicalName).toBe('bronchial disease');
  });

  it('knows type 2 diabetes mellitus as C0011860 / E11', () => {
    expect(byId('DOID:9352')?.cui).toBe('C0011860');
    expect(byId('DOID:9352')?.codes).toContainEqual({ system: 'ICD10CM', code: 'E11' });
  });

  it('keeps both parents of a disease with two', () => {
    expect(byId('DOID:13241')?.parents).toHaveLength(2);
  });

  it('resolves every parent except the root, which has no row of its own', () => {
    const problems = checkIntegrity(diseases);
    expect(problems).toEqual([]);
  });

  it('imports the 2,222 disease-symptom pairs as unweighted edges', () => {
    expect(pairs.relationships).toHaveLength(2_222);
    expect(pairs.relationships.every((r) => r.weight === undefined)).toBe(true);
    expect(pairs.relationships.every((r) => r.basis === 'DO disease-symptom')).toBe(true);
    expect(pairs.relationships).toContainEqual(
      expect.objectContaining({ from: 'DOID:820', to: 'SYMP:0000061' }),
    );
    expect(checkIntegrity(pairs)).toEqual([]);
  });

  it('links pairs to live Symptom Ontology terms; five disease ids are missing from HumanDO', () => {
    const symptoms = importSymptomOntology(readSource('symptom-ontology.symp.obo')).concepts;
    const problems = checkIntegrity({ ...pairs, concepts: [...diseases.concepts, ...symptoms] });
    expect(problems.filter((p) => p.path.endsWith('.to'))).toEqual([]);
    expect([...new Set(problems.map((p) => p.message))].sort()).toEqual([
      'unknown concept DOID:0050549',
      'unknown concept DOID:0080091',
      'unknown concept DOID:0080100',
      'unknown concept DOID:0110638',
      'unknown concept DOID:0111201',
    ]);
  });
});
