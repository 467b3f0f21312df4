import { describe, expect, it } from 'vitest';
import { KbItems } from '../kb/format.ts';
import { HAVE_SOURCES, readSource } from '../testing/sources.ts';
import { importMeshSymptoms, uninvertMeshName } from './mesh.ts';

describe('MeSH signs and symptoms', () => {
  it.each([
    ['Abdomen, Acute', 'Acute Abdomen'],
    ['Pain, Referred', 'Referred Pain'],
    ['Cough', undefined],
    ['Sleep Apnea, Obstructive, Central', undefined],
  ])('writes the inverted heading %s in natural order as %s', (name, natural) => {
    expect(uninvertMeshName(name)).toBe(natural);
  });

  it('imports a row as an observation with a MeSH code and provenance', () => {
    const { concepts } = importMeshSymptoms(
      'mesh_id\tmesh_name\tin_hsdn\nD000006\tAbdomen, Acute\t1\n',
    );
    expect(concepts).toEqual([
      {
        id: 'MESH:D000006',
        canonicalName: 'Abdomen, Acute',
        aliases: ['Acute Abdomen'],
        class: 'observation',
        parents: [],
        bodySystems: [],
        anatomicalLocations: [],
        pathologicalProcesses: [],
        codes: [{ system: 'MESH', code: 'D000006' }],
        provenance: [{ source: 'MeSH Signs and Symptoms (dhimmel/mesh)', reference: 'D000006' }],
      },
    ]);
  });
});

describe.skipIf(!HAVE_SOURCES)('MeSH symptoms file (shared/data/sources)', () => {
  it('imports the 438 terms the README counts, with fever and cough among them', () => {
    const { concepts } = importMeshSymptoms(readSource('mesh.symptoms.tsv'));
    expect(concepts).toHaveLength(438);
    expect(KbItems.safeParse({ concepts }).success).toBe(true);
    expect(new Set(concepts.map((c) => c.id)).size).toBe(438);
    expect(concepts).toContainEqual(
      expect.objectContaining({ id: 'MESH:D005334', canonicalName: 'Fever' }),
    );
    expect(concepts.find((c) => c.id === 'MESH:D003371')?.canonicalName).toBe('Cough');
  });
});
