// Test support only: the core never reads files. Tests read the open ontology files from the
// `shared` folder beside the repository root, and the shipped knowledge base from data/kb.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Folder holding the open clinical source files (shared/data/sources/README.md): the first
 * `shared/data/sources/` beside the repository root or above it (a worktree nested one level
 * deeper finds the same folder), or LOOPDESK_SOURCES_DIR when set.
 */
export const SOURCES_DIR = findSourcesDir();

function findSourcesDir(): string {
  const fromEnv = process.env.LOOPDESK_SOURCES_DIR;
  if (fromEnv) {
    return fromEnv.endsWith('/') ? fromEnv : `${fromEnv}/`;
  }
  let dir = path.dirname(fileURLToPath(new URL('../../../../', import.meta.url)));
  for (let depth = 0; depth < 3; depth++) {
    const candidate = path.join(dir, 'shared', 'data', 'sources');
    if (existsSync(candidate)) {
      return `${candidate}/`;
    }
    dir = path.dirname(dir);
  }
  return fileURLToPath(new URL('../../../../../shared/data/sources/', import.meta.url));
}

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
