// `npm start`'s last step: the server, and beside it the demo assistant (DEMO=0 turns it off).
// Both get the same demo API key, kept under DATA_DIR so restarts reuse it.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const demo = !['0', 'false'].includes(process.env.DEMO ?? '1') && !process.env.OIDC_ISSUER;
const port = process.env.PORT ?? '8080';
const env = { ...process.env };

if (demo) {
  const dataDir = path.resolve(root, process.env.DATA_DIR ?? 'data');
  const file = path.join(dataDir, 'demo-api-key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    const key = `ldk_${randomBytes(4).toString('hex')}_${randomBytes(32).toString('base64url')}`;
    writeFileSync(file, key, { mode: 0o600 });
  }
  env.DEMO_API_KEY = readFileSync(file, 'utf8').trim();
}

const children = [];
function start(name, args, extraEnv = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { ...env, ...extraEnv },
    stdio: 'inherit',
  });
  child.on('exit', (code, signal) => {
    if (name === 'server') {
      // The server is the product: when it stops, everything stops.
      for (const other of children) {
        if (other !== child) {
          other.kill('SIGTERM');
        }
      }
      process.exitCode = code ?? (signal ? 1 : 0);
    }
  });
  children.push(child);
  return child;
}

start('server', ['apps/server/src/main.ts']);
if (demo) {
  start('assistant', ['apps/assistant/src/main.ts'], {
    LOOPDESK_URL: `http://127.0.0.1:${port}`,
    LOOPDESK_API_KEY: env.DEMO_API_KEY,
  });
}
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    for (const child of children) {
      child.kill(signal);
    }
  });
}
