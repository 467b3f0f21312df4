import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `.ci/run` runs the server's tests a second time on PostgreSQL with `npm run test:int`, which
 * takes only the files named `*.int.test.ts`: the naming rule is what sends a test to PostgreSQL.
 * A test file that opens a database (the test harness, the child-process helpers, the outbox
 * reader, platform/db, or TEST_DATABASE_URL itself) under another name would run on PGlite only;
 * this test fails for it, so a database test added later cannot miss the PostgreSQL run.
 */
const SRC = path.dirname(new URL(import.meta.url).pathname);

const OPENS_A_DATABASE = [
  /from '[^']*\/test\/(harness|processes|outbox)\.ts'/,
  /from '\.\/test\/(harness|processes|outbox)\.ts'/,
  /from '[^']*platform\/db\/[^']*'/,
  /from '[^']*\/db\/(database|migrate)\.ts'/,
  /from '\.\.?\/(app|main)\.ts'/,
  /TEST_DATABASE_URL|PGlite|openDatabase\(/,
];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return testFiles(full);
    }
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('server test files', () => {
  it('open a database only when named *.int.test.ts (the files .ci/run runs on PostgreSQL)', () => {
    const files = testFiles(SRC);
    expect(files.some((file) => file.endsWith('.int.test.ts'))).toBe(true);
    const misnamed = files
      .filter(
        (file) => !file.endsWith('.int.test.ts') && file !== new URL(import.meta.url).pathname,
      )
      .filter((file) => {
        const text = readFileSync(file, 'utf8');
        return OPENS_A_DATABASE.some((pattern) => pattern.test(text));
      })
      .map((file) => path.relative(SRC, file));
    expect(
      misnamed,
      'rename these to *.int.test.ts so that .ci/run runs them on PostgreSQL',
    ).toEqual([]);
  });
});
