import type { FullConfig } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { E2E_API_KEY } from './support/assistant.ts';

/** Where the server under test listens; playwright.config.ts's baseURL points here. */
const PORT = Number(process.env.E2E_PORT ?? 8097);
const HOST = '127.0.0.1';
const BASE_URL = `http://${HOST}:${PORT}`;
const READY_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 10_000;
const LOG_TAIL_LINES = 40;

/**
 * Variables that would swap the embedded database or the development sign-in for real ones, or
 * change the shell the tests expect (environment colour, configured links).
 */
const UNSET_FOR_TESTS = [
  'DATABASE_URL',
  'OIDC_ISSUER',
  'OIDC_CLIENT_ID',
  'OIDC_CLIENT_SECRET',
  'OIDC_ALLOWED_DOMAINS',
  'ADMIN_EMAILS',
  'SESSION_SECRET',
  'WEB_DIST',
  'SYNTHETIC_TEST_CASE_URL',
  'PORTAL_ENVIRONMENT',
] as const;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function logTail(logFile: string): string {
  if (!existsSync(logFile)) {
    return '(no server log was written)';
  }
  const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n');
  return lines.slice(-LOG_TAIL_LINES).join('\n') || '(the server log is empty)';
}

/** Whether GET /readyz answers 200 now. */
async function isReady(): Promise<boolean> {
  try {
    const response = await fetch(`${BASE_URL}/readyz`, { signal: AbortSignal.timeout(2_000) });
    return response.status === 200;
  } catch {
    return false;
  }
}

/** Whether anything at all answers HTTP on the test port. */
async function somethingListens(): Promise<boolean> {
  try {
    await fetch(`${BASE_URL}/healthz`, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves when the child has exited, or after `ms` with false. */
function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (hasExited(child)) {
    return Promise.resolve(true);
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, ms);
    const onExit = () => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

/** SIGTERM (graceful shutdown), then SIGKILL if the server is still there after STOP_GRACE_MS. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (hasExited(child)) {
    return;
  }
  child.kill('SIGTERM');
  if (!(await waitForExit(child, STOP_GRACE_MS))) {
    child.kill('SIGKILL');
    await waitForExit(child, STOP_GRACE_MS);
  }
}

/**
 * Starts the real server (embedded PGlite in a fresh temporary directory, development sign-in,
 * demo accounts) and waits until it is ready. With E2E_BASE_URL set, the tests run against that
 * server instead and nothing is started. Returns the teardown.
 */
export default async function globalSetup(
  config: FullConfig,
): Promise<(() => Promise<void>) | undefined> {
  if (process.env.E2E_BASE_URL) {
    return undefined;
  }

  const repoRoot = config.configFile ? path.dirname(config.configFile) : config.rootDir;
  const webIndex = path.join(repoRoot, 'apps', 'web', 'dist', 'index.html');
  if (!existsSync(webIndex)) {
    throw new Error(
      `The portal is not built: ${webIndex} is missing. Run \`npm run build -w @loopdesk/web\` ` +
        '(or `npm run test:e2e`, which builds it first) and try again.',
    );
  }
  if (await somethingListens()) {
    throw new Error(
      `Something already answers on ${BASE_URL}: stop it (a server left over from an earlier run?) ` +
        'or set E2E_BASE_URL to test that server instead.',
    );
  }

  const dataDir = mkdtempSync(path.join(tmpdir(), 'loopdesk-e2e-'));
  const logFile = path.join(dataDir, 'server.log');
  const logFd = openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(PORT),
    HOST,
    PUBLIC_URL: BASE_URL,
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DEMO: '1',
    // The end-to-end tests play the assistant with this key (e2e/support/assistant.ts).
    DEMO_API_KEY: E2E_API_KEY,
    // One configured link and one not: the shell shows both states (e2e/shell.spec.ts).
    TERMS_URL: 'https://loopdesk.example/terms',
    HELP_CENTER_URL: 'https://loopdesk.example/help',
    // The analytics page shows the work just done (the rollups refresh in the background only).
    ANALYTICS_REFRESH_SECONDS: '1',
    // No random second deliveries between the specs' technicians (agreement: integration tests).
    AGREEMENT_SAMPLE_SHARE: '0',
  };
  for (const key of UNSET_FOR_TESTS) {
    delete env[key];
  }

  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', logFd, logFd],
  });
  // The child holds its own copy of the descriptor.
  closeSync(logFd);
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
  });

  const teardown = async () => {
    await stopServer(child);
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (spawnError) {
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`The server could not be started: ${spawnError.message}`);
    }
    if (hasExited(child)) {
      const tail = logTail(logFile);
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(
        `The server exited (code ${child.exitCode ?? 'none'}, signal ${child.signalCode ?? 'none'}) ` +
          `before GET /readyz answered 200. Last lines of its log:\n${tail}`,
      );
    }
    if (await isReady()) {
      return teardown;
    }
    if (Date.now() > deadline) {
      const tail = logTail(logFile);
      await teardown();
      throw new Error(
        `GET ${BASE_URL}/readyz did not answer 200 within ${READY_TIMEOUT_MS / 1000} s. ` +
          `Last lines of the server log:\n${tail}`,
      );
    }
    await sleep(250);
  }
}
