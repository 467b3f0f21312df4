/**
 * Builds data/kb/kb.json from data/kb/source and data/kb/ontology-links.json:
 *
 *   npm run kb:build            write kb.json and print its counts
 *   npm run kb:build -- --check  fail when kb.json is not what the source builds
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format } from 'prettier';
import { compileKb, type OntologyLinks } from './compile.ts';
import { source } from './source/index.ts';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const KB_FILE = here('kb.json');
const LINKS_FILE = here('ontology-links.json');

/** The kb.json text the source builds, formatted as the repository formats JSON. */
export async function buildKbText(): Promise<string> {
  const links = JSON.parse(readFileSync(LINKS_FILE, 'utf8')) as OntologyLinks;
  const kb = compileKb(source, links);
  return format(JSON.stringify(kb), { parser: 'json', printWidth: 100 });
}

async function main() {
  const text = await buildKbText();
  if (process.argv.includes('--check')) {
    if (readFileSync(KB_FILE, 'utf8') !== text) {
      console.error('data/kb/kb.json is not what data/kb/source builds: run npm run kb:build');
      process.exit(1);
    }
    console.log('data/kb/kb.json is up to date');
    return;
  }
  writeFileSync(KB_FILE, text);
  const kb = JSON.parse(text) as {
    items: { concepts: { class: string }[]; [k: string]: unknown[] };
  };
  const counts: Record<string, number> = {};
  for (const c of kb.items.concepts) {
    counts[c.class] = (counts[c.class] ?? 0) + 1;
  }
  for (const [key, items] of Object.entries(kb.items)) {
    console.log(`${key}: ${items.length}`);
  }
  console.log(
    Object.entries(counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main();
}
