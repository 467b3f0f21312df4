import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './test/harness.ts';

const main = path.join(import.meta.dirname, 'main.ts');
const dataDir = mkdtempSync(path.join(tmpdir(), 'loopdesk-main-'));

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      WEB_DIST: '/nonexistent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe('the server process', () => {
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a bad configuration stops it with a message listing each bad variable', async () => {
    const server = start({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      OIDC_ISSUER: 'https://issuer.example',
      NODE_ENV: 'production',
    });
    expect(await server.exited).toBe(1);
    const output = server.output();
    expect(output).toContain("PORT (got 'eighty')");
    expect(output).toContain('DATABASE_URL');
    expect(output).toContain('must start with postgres:// or postgresql://');
    expect(output).toContain('OIDC_CLIENT_ID: is required when OIDC_ISSUER is set');
    expect(output).toContain('SESSION_SECRET: is required in production');
  });

  it('in production with a real provider: no development sign-in at /oidc, and its library is not even loaded', async () => {
    const port = await freePort();
    const server = start({
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      // Never contacted at start: discovery happens at the first sign-in.
      OIDC_ISSUER: 'https://accounts.google.com',
      OIDC_CLIENT_ID: 'loopdesk-portal',
      OIDC_CLIENT_SECRET: 'client-secret',
      SESSION_SECRET: 'x'.repeat(40),
    });
    try {
      let ready = false;
      for (let i = 0; i < 120 && !ready; i++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        ready = await fetch(`http://127.0.0.1:${port}/readyz`)
          .then((r) => r.status === 200)
          .catch(() => false);
      }
      expect(ready, server.output()).toBe(true);
      const discovery = await fetch(
        `http://127.0.0.1:${port}/oidc/.well-known/openid-configuration`,
      );
      expect(discovery.status).toBe(404);
      // oidc-provider is a development tool with warnings of its own: production never loads it.
      expect(server.output()).not.toContain('oidc-provider');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 90_000);

  it('starts on embedded PostgreSQL, answers /readyz, and exits cleanly on SIGTERM', async () => {
    const port = await freePort();
    const server = start({ PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'test' });
    let ready = false;
    for (let i = 0; i < 120 && !ready; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      ready = await fetch(`http://127.0.0.1:${port}/readyz`)
        .then((r) => r.status === 200)
        .catch(() => false);
    }
    expect(ready, server.output()).toBe(true);

    // A request is in flight (half its body sent) when SIGTERM arrives: it still gets its answer.
    const body = JSON.stringify({ padding: 'x'.repeat(2000) });
    const answer = new Promise<number>((resolve, reject) => {
      const call = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/auth/logout',
          headers: { 'content-type': 'application/json', 'content-length': body.length },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      call.on('error', reject);
      call.write(body.slice(0, 1000));
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => call.end(body.slice(1000)), 500);
      }, 300);
    });
    expect(await answer).toBe(204);
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('shutting down: finishing requests in flight');
    // New requests are not taken once it is shutting down.
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  }, 90_000);
});
