import { readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ConfigError, EnvSchema, parseEnv, REPO_ROOT } from './config.ts';
import { mountDevProvider } from './auth/dev-provider.ts';

function problemsOf(env: Record<string, string>): string[] {
  try {
    parseEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      return error.problems;
    }
    throw error;
  }
  return [];
}

describe('configuration', () => {
  it('is valid with nothing set: every variable has a development default', () => {
    expect(problemsOf({})).toEqual([]);
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 8080, DATA_DIR: './data', JOB_LEASE_SECONDS: 600 });
  });

  it('lists each bad variable with the value it got and what to fix', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      BODY_LIMIT_BYTES: '12',
      REDIS_URL: 'localhost:6379',
      OIDC_ALLOWED_DOMAINS: 'example.com',
      SESSION_SECRET: 'short',
      JOB_MAX_ATTEMPTS: '0',
    });
    expect(problems).toEqual([
      "PORT (got 'eighty'): must be a whole number from 0 to 65535",
      "BODY_LIMIT_BYTES (got '12'): must be at least 1024",
      'SESSION_SECRET (got a value of 5 characters): must be at least 32 characters',
      "JOB_MAX_ATTEMPTS (got '0'): must be at least 1",
      "REDIS_URL (got 'localhost:6379'): must start with redis:// or rediss://",
    ]);
  });

  it('never echoes a secret or a URL password into the list of problems', () => {
    const problems = problemsOf({
      SESSION_SECRET: 'hunter2',
      OIDC_ISSUER: 'https://accounts.google.com',
      OIDC_CLIENT_ID: 'portal',
      OIDC_CLIENT_SECRET: ' ',
      ASSISTANT_WEBHOOK_URL: 'https://assistant.example/hooks',
      ASSISTANT_WEBHOOK_SECRET: 'whsec_tooShort',
      DEMO_API_KEY: 'ldk_secretvalue',
      DATABASE_URL: 'mysql://loopdesk:pa55word@db.example/loopdesk',
      REDIS_URL: 'http://:redispass@cache.example:6379',
    });
    const text = problems.join('\n');
    for (const secret of [
      'hunter2',
      'whsec_tooShort',
      'ldk_secretvalue',
      'pa55word',
      'redispass',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(problems).toEqual([
      "DATABASE_URL (got 'mysql://loopdesk:***@db.example/loopdesk'): must start with postgres:// or postgresql://",
      'SESSION_SECRET (got a value of 7 characters): must be at least 32 characters',
      'DEMO_API_KEY (got a value of 15 characters): must be an API key ldk_<8 hex>_<secret>',
      expect.stringMatching(/^REDIS_URL \(got 'http:\/\/:\*\*\*@cache\.example:6379'\): /),
      expect.stringMatching(/^ASSISTANT_WEBHOOK_SECRET \(got a value of 14 characters\): /),
    ]);
  });

  it('reads the metrics guard: addresses and CIDR networks, or none; a token of 32 characters or more', () => {
    expect(parseEnv({ METRICS_ALLOW: '127.0.0.1, 10.0.0.0/8,::1,FD00::/8' }).METRICS_ALLOW).toEqual(
      ['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8'],
    );
    expect(parseEnv({ METRICS_ALLOW: 'none' }).METRICS_ALLOW).toEqual([]);
    expect(parseEnv({}).METRICS_ALLOW).toBeUndefined();
    expect(problemsOf({ METRICS_ALLOW: '10.0.0.0/33,prometheus', METRICS_TOKEN: 'short' })).toEqual(
      [
        'METRICS_TOKEN (got a value of 5 characters): must be at least 32 printable characters without spaces',
        "METRICS_ALLOW (got '10.0.0.0/33,prometheus'): must be comma-separated addresses or CIDR networks (e.g. 127.0.0.1,10.0.0.0/8,::1), or none",
      ],
    );
  });

  it('refuses the development sign-in in production: OIDC_ISSUER and SESSION_SECRET are required', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'OIDC_ISSUER: is required in production: the development sign-in refuses to start there',
      'SESSION_SECRET: is required in production',
    ]);
    expect(
      problemsOf({
        NODE_ENV: 'production',
        OIDC_ISSUER: 'https://accounts.google.com',
        SESSION_SECRET: 'x'.repeat(40),
      }),
    ).toEqual([
      'OIDC_CLIENT_ID: is required when OIDC_ISSUER is set',
      'OIDC_CLIENT_SECRET: is required when OIDC_ISSUER is set',
    ]);
  });

  it('the development provider itself refuses to start with NODE_ENV=production', async () => {
    const app = Fastify();
    await expect(
      mountDevProvider(app, {
        publicUrl: 'http://localhost:8080',
        nodeEnv: 'production',
        clientSecret: 'secret',
        cookieSecret: 'x'.repeat(40),
        accounts: [],
      }),
    ).rejects.toThrow(
      'The development sign-in provider refuses to start with NODE_ENV=production: set OIDC_ISSUER.',
    );
    await app.close();
  });

  it('the README configuration table lists every variable the server reads', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'));
    const listed = new Set(
      table
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z0-9_]+)`/g)])
        .map((match) => match[1]),
    );
    const missing = Object.keys(EnvSchema.shape).filter((name) => !listed.has(name));
    expect(missing, 'add these to the README configuration table').toEqual([]);
    // Each variable has one row: two rows drift apart (they did, with different defaults).
    const rows = table
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z0-9_]+)`/g)])
      .map((match) => match[1]);
    const twice = rows.filter((name, index) => rows.indexOf(name) !== index);
    expect(twice, 'these variables have more than one row in the README table').toEqual([]);
  });
});
