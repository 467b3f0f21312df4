/**
 * Lay phrase rules: how patients say a finding, in a format a clinician can read and extend.
 * One rule a line, `concept-id: pattern`; `#` starts a comment.
 *
 *   vomiting: can't keep [any] (food | anything | water) down
 *   feeling-faint: (going to | gonna | about to) pass out
 *
 * - `( a | b )` is one of the choices, `[ x ]` may be left out; they may nest.
 * - Words are matched like every KB name: case, plurals, tense, British/American spelling and
 *   'my' / 'the' / 'his' don't matter ('keeps passing out' is 'keep pass out'), and "can't",
 *   'cannot', 'unable to', 'struggling to' are one word.
 * - A rule's phrases become aliases of the concept, each with its source: the rule and its line.
 */

/** A parsed rule: the concept (a local id, `LD:` added when missing) and its phrases. */
export interface PhraseRule {
  conceptId: string;
  pattern: string;
  line: number;
  phrases: string[];
}

/** At most this many phrases from one rule: a rule that expands further is an error. */
export const MAX_PHRASES_PER_RULE = 200;

type Node =
  { kind: 'word'; text: string } | { kind: 'choice'; options: Node[][]; optional: boolean };

/** Parses a sequence up to a closing bracket or a '|' at this level. */
function parseSequence(tokens: string[], at: { i: number }, line: number): Node[] {
  const out: Node[] = [];
  while (at.i < tokens.length) {
    const token = tokens[at.i] as string;
    if (token === ')' || token === ']' || token === '|') {
      return out;
    }
    at.i++;
    if (token === '(' || token === '[') {
      const close = token === '(' ? ')' : ']';
      const options: Node[][] = [parseSequence(tokens, at, line)];
      while (tokens[at.i] === '|') {
        at.i++;
        options.push(parseSequence(tokens, at, line));
      }
      if (tokens[at.i] !== close) {
        throw new Error(`line ${line}: '${token}' is not closed by '${close}'`);
      }
      at.i++;
      if (options.some((o) => o.length === 0)) {
        throw new Error(`line ${line}: an empty choice inside '${token} … ${close}'`);
      }
      out.push({ kind: 'choice', options, optional: token === '[' });
      continue;
    }
    out.push({ kind: 'word', text: token });
  }
  return out;
}

function expand(nodes: readonly Node[]): string[][] {
  let results: string[][] = [[]];
  for (const node of nodes) {
    if (node.kind === 'word') {
      results = results.map((r) => [...r, node.text]);
      continue;
    }
    const alternatives = node.options.flatMap(expand);
    if (node.optional) {
      alternatives.push([]);
    }
    results = results.flatMap((r) => alternatives.map((a) => [...r, ...a]));
    if (results.length > MAX_PHRASES_PER_RULE) {
      return results;
    }
  }
  return results;
}

/** Every phrase a pattern stands for. Throws on unbalanced brackets or too many phrases. */
export function expandPattern(pattern: string, line = 1): string[] {
  const tokens = pattern.match(/[()[\]|]|[^\s()[\]|]+/gu) ?? [];
  const at = { i: 0 };
  const nodes = parseSequence(tokens, at, line);
  if (at.i < tokens.length) {
    throw new Error(`line ${line}: '${tokens[at.i]}' without its opening bracket`);
  }
  const phrases = expand(nodes).map((words) => words.join(' '));
  if (phrases.length > MAX_PHRASES_PER_RULE) {
    throw new Error(`line ${line}: more than ${MAX_PHRASES_PER_RULE} phrases; split the rule`);
  }
  return [...new Set(phrases.filter((p) => p !== ''))];
}

/** Parses a rule file; throws one error listing every bad line. */
export function parsePhraseRules(text: string): PhraseRule[] {
  const rules: PhraseRule[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    const content = raw.replace(/#.*$/u, '').trim();
    if (content === '') {
      return;
    }
    // The id ends at the first ':' followed by a space ('SYMP:0000613: …' keeps its prefix).
    const [, id = '', pattern = ''] = /^(\S+?):\s+(.*)$/u.exec(content) ?? [];
    if (pattern.trim() === '' || !/^[\w:/.-]+$/u.test(id)) {
      problems.push(`line ${line}: write 'concept-id: pattern', not '${content}'`);
      return;
    }
    try {
      rules.push({
        conceptId: id.includes(':') ? id : `LD:${id}`,
        pattern: pattern.trim(),
        line,
        phrases: expandPattern(pattern, line),
      });
    } catch (error) {
      problems.push((error as Error).message);
    }
  });
  if (problems.length > 0) {
    throw new Error(`lay phrase rules:\n${problems.join('\n')}`);
  }
  return rules;
}
