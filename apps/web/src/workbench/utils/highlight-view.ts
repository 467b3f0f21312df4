import {
  DEFAULT_HIGHLIGHT_VIEW,
  pressColourKey,
  type HighlightView,
} from '@loopdesk/workbench/colours.ts';
import { useSyncExternalStore } from 'react';

/**
 * The technician's highlight view (the colour keys 0 and backtick, spec 1 §9): kept in this
 * browser so it stays from job to job and across reloads.
 */
const STORAGE_KEY = 'loopdesk.highlight-view';

const listeners = new Set<() => void>();
let cached: { raw: string | null; view: HighlightView } = {
  raw: null,
  view: DEFAULT_HIGHLIGHT_VIEW,
};

function readStorage(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function parse(raw: string | null): HighlightView {
  if (raw === null) {
    return DEFAULT_HIGHLIGHT_VIEW;
  }
  try {
    const value = JSON.parse(raw) as Partial<Record<keyof HighlightView, unknown>> | null;
    return {
      byCategory:
        typeof value?.byCategory === 'boolean'
          ? value.byCategory
          : DEFAULT_HIGHLIGHT_VIEW.byCategory,
      labels: typeof value?.labels === 'boolean' ? value.labels : DEFAULT_HIGHLIGHT_VIEW.labels,
    };
  } catch {
    return DEFAULT_HIGHLIGHT_VIEW;
  }
}

/** The current view (the same object while the stored value is unchanged). */
export function getHighlightView(): HighlightView {
  const raw = readStorage();
  if (raw !== cached.raw) {
    cached = { raw, view: parse(raw) };
  }
  return cached.view;
}

export function setHighlightView(view: HighlightView): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(view));
  } catch {
    // Storage refused (private mode, quota): the view still changes for this page.
    cached = { raw: JSON.stringify(view), view };
  }
  for (const listener of listeners) {
    listener();
  }
}

/** Applies a colour key; false when the key is not one. */
export function applyColourKey(key: string): boolean {
  const next = pressColourKey(getHighlightView(), key);
  if (next === null) {
    return false;
  }
  setHighlightView(next);
  return true;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) {
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The highlight view, re-rendering when a colour key changes it (here or in another tab). */
export function useHighlightView(): HighlightView {
  return useSyncExternalStore(subscribe, getHighlightView, getHighlightView);
}
