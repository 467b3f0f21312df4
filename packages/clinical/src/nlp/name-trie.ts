import type { Concept } from '../kb/format.ts';
import type { NameEntry } from './matching.ts';

/*
 * The dictionary of names as a trie over word numbers, held in typed arrays (issue 22 items 3 and
 * 4): a node is a number, an edge a slot of an open-addressing table keyed by (node, word), and a
 * node's names a linked list of entries (concept, which of its names, derived or written). A
 * million concepts then cost a few tens of bytes each for the trie instead of an object, a Map
 * and an array per node. Nodes are numbered as they are created, so the children of a node in
 * ascending number are in the order they were inserted (the order a Map would give).
 */

/** No node, word or entry. */
export const NONE = -1;

function grown<T extends Int32Array | Uint8Array>(array: T, length: number, fill: number): T {
  if (length <= array.length) {
    return array;
  }
  const next = new (array.constructor as new (n: number) => T)(Math.max(length, array.length * 2));
  next.set(array);
  next.fill(fill, array.length);
  return next;
}

/** What a name is to the concept it names, for one entry of the trie. */
export interface NameEntryInput {
  /** Position of the concept in the array the trie was given. */
  concept: number;
  /** 0: the canonical name; i: the alias `aliases[i - 1]`. */
  name: number;
  derived: boolean;
  part?: readonly string[];
}

export class NameTrie {
  private readonly ids = new Map<string, number>();
  /** The words, by number. */
  readonly words: string[] = [];
  private nodes = 1;
  private head = new Int32Array(1024).fill(NONE);
  private slotParent = new Int32Array(1024).fill(NONE);
  private slotWord = new Int32Array(1024);
  private slotChild = new Int32Array(1024);
  private edges = 0;
  private entryNext = new Int32Array(1024);
  private entryConcept = new Int32Array(1024);
  /** The name's number times two, plus one when derived. */
  private entryName = new Int32Array(1024);
  private entries = 0;
  private readonly parts = new Map<number, readonly string[]>();

  constructor(private readonly concepts: readonly Concept[]) {}

  /** The number of a word, or NONE when no name holds it. */
  wordId(word: string): number {
    return this.ids.get(word) ?? NONE;
  }

  private intern(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.words.length;
      this.ids.set(word, id);
      this.words.push(word);
    }
    return id;
  }

  private slot(parent: number, word: number): number {
    const mask = this.slotParent.length - 1;
    let h = Math.imul(parent, 0x9e3779b1) ^ Math.imul(word + 1, 0x85ebca77);
    h = (h ^ (h >>> 15)) & mask;
    while (this.slotParent[h] !== NONE) {
      if (this.slotParent[h] === parent && this.slotWord[h] === word) {
        return h;
      }
      h = (h + 1) & mask;
    }
    return h;
  }

  /** The child of `at` by `word`, or NONE. */
  child(at: number, word: number): number {
    if (at < 0 || word < 0) {
      return NONE;
    }
    const h = this.slot(at, word);
    return this.slotParent[h] === NONE ? NONE : (this.slotChild[h] as number);
  }

  private addChild(at: number, word: number): number {
    if ((this.edges + 1) * 4 > this.slotParent.length * 3) {
      const [parents, words, children] = [this.slotParent, this.slotWord, this.slotChild];
      const size = parents.length * 2;
      this.slotParent = new Int32Array(size).fill(NONE);
      this.slotWord = new Int32Array(size);
      this.slotChild = new Int32Array(size);
      for (let i = 0; i < parents.length; i++) {
        if (parents[i] !== NONE) {
          const h = this.slot(parents[i] as number, words[i] as number);
          this.slotParent[h] = parents[i] as number;
          this.slotWord[h] = words[i] as number;
          this.slotChild[h] = children[i] as number;
        }
      }
    }
    const h = this.slot(at, word);
    if (this.slotParent[h] !== NONE) {
      return this.slotChild[h] as number;
    }
    const child = this.nodes++;
    this.head = grown(this.head, this.nodes, NONE);
    this.slotParent[h] = at;
    this.slotWord[h] = word;
    this.slotChild[h] = child;
    this.edges++;
    return child;
  }

  /** Adds a name's entry under its keys. */
  insert(keys: readonly string[], entry: NameEntryInput): void {
    let at = 0;
    for (const key of keys) {
      at = this.addChild(at, this.intern(key));
    }
    const e = this.entries++;
    this.entryNext = grown(this.entryNext, this.entries, 0);
    this.entryConcept = grown(this.entryConcept, this.entries, 0);
    this.entryName = grown(this.entryName, this.entries, 0);
    this.entryNext[e] = this.head[at] as number;
    this.entryConcept[e] = entry.concept;
    this.entryName[e] = entry.name * 2 + (entry.derived ? 1 : 0);
    this.head[at] = e;
    if (entry.part) {
      this.parts.set(e, entry.part);
    }
  }

  /** The node reached by `keys`, or NONE. */
  find(keys: readonly string[]): number {
    let at = 0;
    for (const key of keys) {
      at = this.child(at, this.wordId(key));
    }
    return at;
  }

  /** Whether names end at `at`. */
  hasValues(at: number): boolean {
    return at >= 0 && this.head[at] !== NONE;
  }

  /** Whether an entry of `at` is a written name, or a derived one of the concept numbered `concept`. */
  heldByWrittenOr(at: number, concept: number): boolean {
    const id = (this.concepts[concept] as Concept).id;
    for (
      let e = at < 0 ? NONE : (this.head[at] as number);
      e !== NONE;
      e = this.entryNext[e] as number
    ) {
      if (
        (this.entryName[e] as number) % 2 === 0 ||
        this.concepts[this.entryConcept[e] as number]?.id === id
      ) {
        return true;
      }
    }
    return false;
  }

  /** The entries of `at` in the order they were inserted. */
  values(at: number): NameEntry[] {
    const out: NameEntry[] = [];
    for (
      let e = at < 0 ? NONE : (this.head[at] as number);
      e !== NONE;
      e = this.entryNext[e] as number
    ) {
      const concept = this.concepts[this.entryConcept[e] as number] as Concept;
      const number = (this.entryName[e] as number) >> 1;
      const derived = (this.entryName[e] as number) % 2 === 1;
      const name = number === 0 ? concept.canonicalName : (concept.aliases[number - 1] as string);
      const part = this.parts.get(e);
      out.push({
        concept,
        name,
        canonical: !derived && number === 0,
        ...(derived ? { derived: true } : {}),
        exactCase: !derived && name.trim().length <= 2 ? name.trim() : undefined,
        ...(part ? { part } : {}),
      });
    }
    return out.reverse();
  }

  /** Nodes, edges and entries held. */
  get counts(): { nodes: number; edges: number; entries: number; words: number } {
    return {
      nodes: this.nodes,
      edges: this.edges,
      entries: this.entries,
      words: this.words.length,
    };
  }
}
