import { useContext, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { DraftContext, type DraftStore } from './draft-store.ts';

/** How a field is written into the draft (JSON) and read back; `undefined` when unreadable. */
export interface DraftCodec<T> {
  save: (value: T) => unknown;
  load: (raw: unknown) => T | undefined;
}

/** A list (of anything the screen wrote): read back only when it is a list. */
export const listDraft = <T>(): DraftCodec<T[]> => ({
  save: (value) => value,
  load: (raw) => (Array.isArray(raw) ? (raw as T[]) : undefined),
});

/** A set of ids, kept as a list. */
export const idSetDraft: DraftCodec<ReadonlySet<string>> = {
  save: (value) => [...value],
  load: (raw) =>
    Array.isArray(raw)
      ? new Set(raw.filter((item): item is string => typeof item === 'string'))
      : undefined,
};

export const textDraft: DraftCodec<string> = {
  save: (value) => value,
  load: (raw) => (typeof raw === 'string' ? raw : undefined),
};

/** A plain object of the screen's own shape. */
export const recordDraft = <T extends object>(): DraftCodec<T> => ({
  save: (value) => value,
  load: (raw) => (raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as T) : undefined),
});

/**
 * `useState` for a field of a task screen that belongs in the draft (issue 20 point 17): it starts
 * from the task's draft when there is one, and every change is kept in the draft. Outside a
 * draft (tests, other screens) it is a plain `useState`.
 */
export function useDraftState<T>(
  key: string,
  initial: () => T,
  codec: DraftCodec<T>,
): [T, (next: T | ((current: T) => T)) => void] {
  const store = useContext(DraftContext);
  const [value, setValue] = useState<T>(() => {
    if (store && key in store.initial) {
      const loaded = codec.load(store.initial[key]);
      if (loaded !== undefined) {
        return loaded;
      }
    }
    return initial();
  });
  const start = useRef(value);
  useEffect(() => {
    if (store && !Object.is(value, start.current)) {
      store.record(key, codec.save(value));
    }
    // The codec is a constant of the screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, key, value]);
  return [value, setValue];
}

const never = () => () => undefined;

/** Whether the task screen has edits now (re-renders when that changes). */
export function useDraftDirty(store: DraftStore | null): boolean {
  return useSyncExternalStore(
    store ? (listener) => store.subscribe(listener) : never,
    () => store?.dirty() ?? false,
    () => false,
  );
}
