// Test support only: the core never reads files. Tests read the open ontology files from the
// `shared` folder beside the repository root, and the shipped knowledge base from data/kb.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Folder holding the open clinical source files (shared/data/sources/README.md). */
export const SOURCES_DIR = fileURLToPath(
  new URL('../../../../../shared/data/sources/', import.meta.url),
);

/** True when the source folder is present (it is not part of the repository). */
export const HAVE_SOURCES = existsSync(SOURCES_DIR);

/** Reads one source file as text. */
export function readSource(name: string): string {
  return readFileSync(`${SOURCES_DIR}${name}`, 'utf8');
}

/** Path of the knowledge base shipped with the project. */
export const SHIPPED_KB_PATH = fileURLToPath(
  new URL('../../../../data/kb/kb.json', import.meta.url),
);
