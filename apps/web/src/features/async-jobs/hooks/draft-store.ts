import type { TaskParams } from '@loopdesk/contracts/async-jobs.ts';
import { createContext } from 'react';

/** How long after the last edit the draft is written to the task. */
export const DRAFT_SAVE_DELAY_MS = 800;

/**
 * The draft of one task screen (issue 20 point 17): the fields a screen keeps with
 * `useDraftState`, restored from the task and written back to it while the user works.
 */
export interface DraftStore {
  /** The fields of the draft the task came with (empty when none). */
  readonly initial: Readonly<Record<string, unknown>>;
  /** The screen has edits (made now, or restored from a draft). */
  dirty(): boolean;
  /** A field changed: it goes into the draft, written after a short pause. */
  record(key: string, value: unknown): void;
  /** Writes the draft now (leaving the task); resolves when written or failed. */
  flush(): Promise<void>;
  /** The task is being published or discarded: no more drafts, leaving does not ask. */
  finish(): void;
  /** Publishing or discarding failed: the screen is live again. */
  resume(): void;
  finished(): boolean;
  /** Subscribes to `dirty` changes (for the leave guard). */
  subscribe(this: void, listener: () => void): () => void;
}

export const DraftContext = createContext<DraftStore | null>(null);

/** Builds the store of a task; `save` writes the draft to the server. */
export function createDraftStore(
  params: TaskParams,
  initial: Record<string, unknown>,
  save: (params: TaskParams, draft: Record<string, unknown>) => Promise<unknown>,
): DraftStore {
  const values: Record<string, unknown> = { ...initial };
  let dirty = Object.keys(initial).length > 0;
  let finished = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsaved = false;
  const listeners = new Set<() => void>();

  const write = async () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (!unsaved || finished) {
      return;
    }
    unsaved = false;
    try {
      await save(params, { ...values });
    } catch {
      // A draft that cannot be written (the lease expired…) is tried again at the next edit.
      unsaved = true;
    }
  };

  return {
    initial,
    dirty: () => dirty && !finished,
    record(key, value) {
      if (finished) {
        return;
      }
      values[key] = value;
      unsaved = true;
      if (!dirty) {
        dirty = true;
        listeners.forEach((listener) => listener());
      }
      if (timer !== undefined) {
        clearTimeout(timer);
      }
      timer = setTimeout(() => void write(), DRAFT_SAVE_DELAY_MS);
    },
    flush: write,
    finish() {
      finished = true;
      if (timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
      }
      listeners.forEach((listener) => listener());
    },
    resume() {
      finished = false;
      listeners.forEach((listener) => listener());
    },
    finished: () => finished,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
