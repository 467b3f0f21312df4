// Installs dependencies when node_modules is missing or older than package-lock.json or a
// manifest, so that `npm start` and `npm test` work on a fresh clone with no other step. It installs
// exactly the lockfile (`npm ci`): the install never rewrites package-lock.json, so a fresh clone's
// work tree stays clean. Changing dependencies is `npm install <pkg>`, which updates the lockfile to
// commit with it.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const installed = path.join(root, 'node_modules', '.package-lock.json');
const lock = path.join(root, 'package-lock.json');
const manifests = [
  'package.json',
  ...['packages', 'apps'].flatMap((folder) =>
    readdirSync(path.join(root, folder)).map((name) => `${folder}/${name}/package.json`),
  ),
];

function stale() {
  if (!existsSync(installed)) {
    return 'node_modules is missing';
  }
  const installedAt = statSync(installed).mtimeMs;
  for (const file of [lock, ...manifests.map((m) => path.join(root, m))]) {
    if (existsSync(file) && statSync(file).mtimeMs > installedAt + 1000) {
      return `${path.relative(root, file)} changed since the last install`;
    }
  }
  return null;
}

const reason = stale();
if (reason) {
  console.log(`Installing dependencies (${reason})…`);
  try {
    execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
  } catch {
    console.error(
      'npm ci failed. If a package.json changed, run `npm install` to update package-lock.json.',
    );
    process.exit(1);
  }
  // Mark this check as done: stale() compares the manifests with the marker's time.
  const now = new Date();
  utimesSync(installed, now, now);
}
