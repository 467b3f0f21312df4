import { readFileSync } from 'node:fs';
import type {
  ConditionDef,
  MedicationDef,
  ObservationDef,
  QuestionDef,
  StructureDef,
  TreatmentDef,
} from './types.ts';
import { anatomicalLocations, bodySystems, pathologicalProcesses } from './structure.ts';
import { questions } from './questions.ts';
import { medications, treatments } from './medications.ts';
import { broaderObservations } from './observation-hierarchy.ts';
import { general } from './observations/general.ts';
import { integumentary as integumentaryObservations } from './observations/integumentary.ts';
import { endocrine as endocrineObservations } from './observations/endocrine.ts';
import { digestive as digestiveObservations } from './observations/digestive.ts';
import { musculoskeletal as musculoskeletalObservations } from './observations/musculoskeletal.ts';
import { haematologicalLymphatic as haematologicalObservations } from './observations/haematological-lymphatic.ts';
import { nervous as nervousObservations } from './observations/nervous.ts';
import { cardiovascular as cardiovascularObservations } from './observations/cardiovascular.ts';
import { sensory as sensoryObservations } from './observations/sensory.ts';
import { respiratory as respiratoryObservations } from './observations/respiratory.ts';
import { urinary as urinaryObservations } from './observations/urinary.ts';
import { reproductive as reproductiveObservations } from './observations/reproductive.ts';
import { mentalHealth as mentalHealthObservations } from './observations/mental-health.ts';
import { riskFactors } from './observations/risk-factors.ts';
import { respiratory } from './conditions/respiratory.ts';
import { haematologicalLymphatic } from './conditions/haematological-lymphatic.ts';
import { sensory } from './conditions/sensory.ts';
import { urinary } from './conditions/urinary.ts';
import { digestive } from './conditions/digestive.ts';
import { nervous } from './conditions/nervous.ts';
import { cardiovascular } from './conditions/cardiovascular.ts';
import { endocrine } from './conditions/endocrine.ts';
import { integumentary } from './conditions/integumentary.ts';
import { immune } from './conditions/immune.ts';
import { musculoskeletal } from './conditions/musculoskeletal.ts';
import { mentalHealth } from './conditions/mental-health.ts';
import { reproductive } from './conditions/reproductive.ts';

/** Everything authored for the shipped knowledge base, in the order it is written out. */
export interface KbSource {
  kbVersion: string;
  name: string;
  description: string;
  bodySystems: StructureDef[];
  anatomicalLocations: StructureDef[];
  pathologicalProcesses: StructureDef[];
  observations: ObservationDef[];
  /** Narrower observation id → the broader observation ids it is a kind of (`parents`). */
  broader: Readonly<Record<string, readonly string[]>>;
  conditions: ConditionDef[];
  questions: QuestionDef[];
  medications: MedicationDef[];
  treatments: TreatmentDef[];
  /** The lay phrase rules (`lay-phrases.txt`, format in packages/clinical/src/kb/phrase-rules.ts). */
  layPhrases: string;
}

export const source: KbSource = {
  layPhrases: readFileSync(new URL('./lay-phrases.txt', import.meta.url), 'utf8'),
  kbVersion: '2026.11.6',
  name: 'Loopdesk primary and urgent care knowledge base',
  description:
    "Common primary-care and urgent-care conditions, the observations that suggest or argue against them, and red-flag complications. Written for Loopdesk from general medical knowledge; weights are the project's own.",
  bodySystems,
  anatomicalLocations,
  pathologicalProcesses,
  observations: [
    ...general,
    ...integumentaryObservations,
    ...endocrineObservations,
    ...digestiveObservations,
    ...musculoskeletalObservations,
    ...haematologicalObservations,
    ...nervousObservations,
    ...cardiovascularObservations,
    ...sensoryObservations,
    ...respiratoryObservations,
    ...urinaryObservations,
    ...reproductiveObservations,
    ...mentalHealthObservations,
    ...riskFactors,
  ],
  broader: broaderObservations,
  conditions: [
    ...respiratory,
    ...haematologicalLymphatic,
    ...sensory,
    ...urinary,
    ...digestive,
    ...nervous,
    ...cardiovascular,
    ...endocrine,
    ...integumentary,
    ...immune,
    ...musculoskeletal,
    ...mentalHealth,
    ...reproductive,
  ],
  questions,
  medications,
  treatments,
};
