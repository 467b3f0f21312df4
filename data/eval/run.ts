/**
 * npm run eval:nlp — scores the recogniser on the evaluation set in this folder and prints
 * recall, precision, negation and context accuracy per tag and per class: for the development
 * part with every miss, for the held-out part the scores only (it is never tuned on).
 *
 *   npm run eval:nlp                 # both parts
 *   npm run eval:nlp -- --record     # also write the held-out figures to heldout-score.json
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadKnowledgeBase } from '../../packages/clinical/src/kb/integrity.ts';
import { formatScore, parseEvalSet, scoreEvalSet } from '../../packages/clinical/src/nlp/eval-set.ts';
import { createRecogniser } from '../../packages/clinical/src/nlp/recognise.ts';

const here = import.meta.dirname;
const kb = loadKnowledgeBase(
  JSON.parse(readFileSync(path.join(here, '../kb/kb.json'), 'utf8')),
);
const classOf = new Map(kb.items.concepts.map((c) => [c.id, c.class]));
const recogniser = createRecogniser(kb.items.concepts);
const read = (name: string) => parseEvalSet(readFileSync(path.join(here, name), 'utf8'));

const dev = scoreEvalSet(read('dev.jsonl'), recogniser, (id) => classOf.get(id));
console.log(dev.misses.join('\n'));
console.log(formatScore('dev', dev).join('\n'));

const heldOut = scoreEvalSet(read('heldout.jsonl'), recogniser, (id) => classOf.get(id));
console.log(formatScore('heldout', heldOut).join('\n'));

if (process.argv.includes('--record')) {
  const { recall, precision, negation, context } = heldOut.overall;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  writeFileSync(
    path.join(here, 'heldout-score.json'),
    `${JSON.stringify({ recall: round(recall), precision: round(precision), negation: round(negation), context: round(context) }, null, 2)}\n`,
  );
  console.log('recorded heldout-score.json');
}
