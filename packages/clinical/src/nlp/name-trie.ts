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

/** A word table of `slots` / 2 empty slots (number NONE). */
function emptyWordSlots(slots: number): Int32Array {
  const table = new Int32Array(2 * slots);
  for (let i = 1; i < table.length; i += 2) {
    table[i] = NONE;
  }
  return table;
}

/** FNV-1a over the word's UTF-16 code units, then mixed (murmur3's finaliser) for the slots. */
function hashWord(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/** An edge table of `capacity` empty slots (parent NONE). */
function emptySlots(capacity: number): Int32Array {
  const slots = new Int32Array(3 * capacity);
  for (let i = 0; i < slots.length; i += 3) {
    slots[i] = NONE;
  }
  return slots;
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
  /**
   * The words' numbers by hash: slot h is wordSlots[2h] = the word's hash, wordSlots[2h + 1] = its
   * number (NONE: empty). A `Map` of a million words cost two to four cache misses a look-up (bucket,
   * entry, the key string's header), most of them for the text's words no name holds; here a word
   * no name holds costs one (its slot), and a known one its slot and its string.
   */
  private wordSlots = emptyWordSlots(1024);
  /** The words, by number. */
  readonly words: string[] = [];
  private nodes = 1;
  private head = new Int32Array(1024).fill(NONE);
  /**
   * The edges' table: slot h is slots[3h .. 3h + 3) = parent (NONE: empty), word, child, side by
   * side so that a probe reads one cache line (three arrays cost three misses a probe once the
   * table outgrows the caches: a million concepts).
   */
  private slots = emptySlots(1024);
  private capacity = 1024;
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
    const slots = this.wordSlots;
    const mask = (slots.length >> 1) - 1;
    const hash = hashWord(word);
    for (let h = hash & mask; ; h = (h + 1) & mask) {
      const id = slots[2 * h + 1] as number;
      if (id === NONE || (slots[2 * h] === hash && this.words[id] === word)) {
        return id;
      }
    }
  }

  private intern(word: string): number {
    const id = this.wordId(word);
    if (id !== NONE) {
      return id;
    }
    const next = this.words.length;
    this.words.push(word);
    if (this.words.length * 2 > this.wordSlots.length >> 1) {
      // Grown at half full, by the hashes kept (no word is read again).
      const old = this.wordSlots;
      this.wordSlots = emptyWordSlots(old.length);
      for (let i = 0; i < old.length; i += 2) {
        if (old[i + 1] !== NONE) {
          this.placeWord(old[i] as number, old[i + 1] as number);
        }
      }
    }
    this.placeWord(hashWord(word), next);
    return next;
  }

  /** Puts word number `id` of hash `hash` in the first empty slot of its run. */
  private placeWord(hash: number, id: number): void {
    const slots = this.wordSlots;
    const mask = (slots.length >> 1) - 1;
    let h = hash & mask;
    while (slots[2 * h + 1] !== NONE) {
      h = (h + 1) & mask;
    }
    slots[2 * h] = hash;
    slots[2 * h + 1] = id;
  }

  /** The slot of edge (parent, word): its own, or the empty one where it would go. */
  private slot(parent: number, word: number): number {
    const slots = this.slots;
    const mask = this.capacity - 1;
    let h = Math.imul(parent, 0x9e3779b1) ^ Math.imul(word + 1, 0x85ebca77);
    h = (h ^ (h >>> 15)) & mask;
    for (;;) {
      const p = slots[3 * h] as number;
      if (p === NONE || (p === parent && slots[3 * h + 1] === word)) {
        return h;
      }
      h = (h + 1) & mask;
    }
  }

  /** The child of `at` by `word`, or NONE. */
  child(at: number, word: number): number {
    if (at < 0 || word < 0) {
      return NONE;
    }
    const h = this.slot(at, word);
    return this.slots[3 * h] === NONE ? NONE : (this.slots[3 * h + 2] as number);
  }

  private addChild(at: number, word: number): number {
    if ((this.edges + 1) * 4 > this.capacity * 3) {
      const old = this.slots;
      this.capacity *= 2;
      this.slots = emptySlots(this.capacity);
      for (let i = 0; i < old.length; i += 3) {
        if (old[i] !== NONE) {
          const h = 3 * this.slot(old[i] as number, old[i + 1] as number);
          this.slots[h] = old[i] as number;
          this.slots[h + 1] = old[i + 1] as number;
          this.slots[h + 2] = old[i + 2] as number;
        }
      }
    }
    const h = 3 * this.slot(at, word);
    if (this.slots[h] !== NONE) {
      return this.slots[h + 2] as number;
    }
    const child = this.nodes++;
    this.head = grown(this.head, this.nodes, NONE);
    this.slots[h] = at;
    this.slots[h + 1] = word;
    this.slots[h + 2] = child;
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
