import type { ConditionDef } from '../types.ts';

export const haematologicalLymphatic: ConditionDef[] = [
  {
    id: 'glandular-fever',
    name: 'infectious mononucleosis',
    cui: 'C0021345',
    aka: ['glandular fever', 'mono', 'kissing disease', 'EBV infection'],
    sys: ['haematological-lymphatic'],
    loc: ['throat', 'neck'],
    proc: ['infection'],
    acuity: 'other',
    prev: 'uncommon',
    for: 'fatigue:H sore-throat:H swollen-glands:H fever:M tonsillar-exudate:M malaise:M rash:L spleen-enlarged:M generalised-lymph-nodes:M',
    comp: [
      {
        id: 'splenic-rupture',
        name: 'ruptured spleen',
        acuity: 'emergent',
        q: 'Do you have sudden pain in the upper left of your tummy or your left shoulder?',
      },
    ],
  },
  {
    id: 'iron-deficiency-anaemia',
    name: 'iron deficiency anaemia',
    cui: 'C0162316',
    aka: ['anaemia', 'anemia', 'low iron', 'iron deficiency anemia'],
    sys: ['haematological-lymphatic'],
    acuity: 'other',
    prev: 'common',
    for: 'fatigue:H pallor:H exertional-dyspnea:M dizziness:M palpitations:L hair-loss:L weakness:M pale-conjunctivae:M pica:M',
  },
];
