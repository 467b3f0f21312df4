import { redFlagObservations, redFlagsIn } from '@loopdesk/clinical/inference/red-flags.ts';
import type { RedFlagFinder } from '../conversations/red-flags.ts';
import type { Knowledge } from '../knowledge/knowledge.ts';

/**
 * The red-flag finder over the served knowledge base (issue 20): the clinical recogniser finds
 * observations in a patient's words; those of high-acuity conditions are red flags. The list of
 * red-flag observations is worked out again when the knowledge base is revised.
 */
export function createRedFlagFinder(knowledge: Knowledge): RedFlagFinder {
  let built: { version: string; size: number; flagged: Map<string, string[]> } | null = null;
  const flagged = () => {
    const { kb } = knowledge;
    const version = kb.kbVersion;
    const size = kb.items.relationships.length + kb.items.concepts.length;
    if (!built || built.version !== version || built.size !== size) {
      built = { version, size, flagged: redFlagObservations(kb.items) };
    }
    return built.flagged;
  };
  const finder = (text: string) => redFlagsIn(text, knowledge.recogniser, flagged());
  return Object.defineProperty(finder, 'ready', { get: () => knowledge.recogniser.ready });
}
