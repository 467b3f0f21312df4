import { openDB, type DBSchema } from 'idb';
import {
  OntologyCount,
  OntologyPage,
  type OntologyEntry,
} from '@loopdesk/contracts/intelligence.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** The browser's ontology cache (spec 3 §7, §9): database decoded_console, version 4. */
export const ONTOLOGY_DB = 'decoded_console';
export const ONTOLOGY_DB_VERSION = 4;
export const ONTOLOGY_STORE = 'ontology';
/** The ontology is fetched in pages of 10000 when the cache is empty (spec 3 §7, §9). */
export const ONTOLOGY_PAGE_SIZE = 10_000;

interface ConsoleDb extends DBSchema {
  ontology: { key: string; value: OntologyEntry };
}

/** Where the ontology is kept: the store keyed by `c`. */
export interface OntologyStore {
  count(): Promise<number>;
  putAll(entries: readonly OntologyEntry[]): Promise<void>;
}

/** The IndexedDB store, made on first use (and on an upgrade from an older version). */
export async function openOntologyStore(): Promise<OntologyStore> {
  const db = await openDB<ConsoleDb>(ONTOLOGY_DB, ONTOLOGY_DB_VERSION, {
    upgrade(database) {
      if (!database.objectStoreNames.contains(ONTOLOGY_STORE)) {
        database.createObjectStore(ONTOLOGY_STORE, { keyPath: 'c' });
      }
    },
  });
  return {
    count: () => db.count(ONTOLOGY_STORE),
    async putAll(entries) {
      const tx = db.transaction(ONTOLOGY_STORE, 'readwrite');
      await Promise.all([...entries.map((entry) => tx.store.put(entry)), tx.done]);
    },
  };
}

/**
 * Loads the ontology into the store unless it holds some already: the count first, then pages
 * of 10000, telling the progress (entries held of the total) as it goes.
 */
export async function loadOntology(
  store: OntologyStore,
  onProgress: (held: number, total: number) => void,
  signal?: AbortSignal,
): Promise<number> {
  const cached = await store.count();
  if (cached > 0) {
    onProgress(cached, cached);
    return cached;
  }
  const { count } = await callRoute(
    'GET',
    '/internal/intelligence/clinical_inference/ontology/_count',
    {
      schema: OntologyCount,
      ...(signal ? { signal } : {}),
    },
  );
  let held = 0;
  onProgress(0, count);
  for (let page = 0; page * ONTOLOGY_PAGE_SIZE < count; page += 1) {
    const answer = await callRoute('GET', '/internal/intelligence/clinical_inference/ontology', {
      query: { p: page, s: ONTOLOGY_PAGE_SIZE },
      schema: OntologyPage,
      ...(signal ? { signal } : {}),
    });
    await store.putAll(answer.items);
    held += answer.items.length;
    onProgress(held, count);
    if (answer.items.length === 0) {
      break;
    }
  }
  return held;
}
