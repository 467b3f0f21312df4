/**
 * Corrections to the name matching of link.ts: `exclude` drops a match ('LD:id ONTOLOGY:id')
 * whose names agree but whose meanings do not; `include` adds links names cannot find.
 */
export const linkOverrides: { exclude: string[]; include: Record<string, string[]> } = {
  exclude: [
    // The Symptom Ontology files 'skin redness' under rash; ours is erythema.
    'LD:skin-redness SYMP:0000487',
    // The Symptom Ontology lists 'fecal incontinence' as a synonym of diarrhea.
    'LD:bowel-incontinence SYMP:0000570',
    // Aliases that name a broader disease than the concept.
    'LD:iron-deficiency-anaemia DOID:2355',
    'LD:obstructive-sleep-apnoea DOID:0050847',
    'LD:peripheral-neuropathy DOID:870',
    'LD:peripheral-neuropathy DOID:9743',
    'LD:skin-abscess DOID:2176',
  ],
  include: {
    'LD:iron-deficiency-anaemia': ['DOID:11758'],
    'LD:obstructive-sleep-apnoea': ['DOID:0050848'],
    'LD:testicular-torsion': ['DOID:11996'],
    'LD:warts': ['DOID:11165'],
    'LD:overactive-bladder': ['DOID:0070355'],
    'LD:ruptured-aaa': ['DOID:7693'],
    'LD:eustachian-tube-dysfunction': ['DOID:9739'],
    'LD:haemorrhoids': ['DOID:9746'],
  },
};
