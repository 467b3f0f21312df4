import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { PortalEnvironment } from '@loopdesk/contracts/users.ts';

const list = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter((item) => item.length > 0),
  );

const flag = z
  .enum(['0', '1', 'true', 'false'], { message: 'must be 0, 1, true or false' })
  .default('1')
  .transform((value) => value === '1' || value === 'true');

/** A whole number in a range, with a message that says so. */
const whole = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce
    .number({
      message: `must be a whole number${max === Number.MAX_SAFE_INTEGER ? ` of at least ${min}` : ` from ${min} to ${max}`}`,
    })
    .int({ message: 'must be a whole number' })
    .min(min, { message: `must be at least ${min}` })
    .max(max, { message: `must be at most ${max}` });

/** Seconds, fractions allowed (tests use short heartbeats). */
const seconds = (min: number) =>
  z.coerce
    .number({ message: 'must be a number of seconds' })
    .min(min, { message: `must be at least ${min}` });

/** An address (`10.0.0.7`, `::1`) or a network in CIDR form (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrNetwork(item: string): boolean {
  const [address = '', prefix, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) {
    return false;
  }
  return (
    prefix === undefined ||
    (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128))
  );
}

/** Who may read /metrics without the token: addresses and networks, or `none`. */
const addressList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter((item) => item.length > 0),
  )
  .refine((items) => items.every((item) => item === 'none' || isAddressOrNetwork(item)), {
    message:
      'must be comma-separated addresses or CIDR networks (e.g. 127.0.0.1,10.0.0.0/8,::1), or none',
  })
  .transform((items) => items.filter((item) => item !== 'none'));

const optionalUrl = z.union([z.literal(''), z.url({ message: 'must be a full URL' })]).default('');

/** A tenant's EMR: the built-in record store, a FHIR R4 server, or none. */
export type EmrServer =
  { kind: 'builtin' } | { kind: 'fhir-r4'; baseUrl: string } | { kind: 'none' };

/**
 * `EMR_SERVERS`: comma-separated `tenant=builtin`, `tenant=none` or `tenant=https://fhir.example/r4`
 * (a FHIR R4 server's base URL). Tenants not named use the built-in record store.
 */
function parseEmrServers(text: string, ctx: z.RefinementCtx): Map<string, EmrServer> {
  const servers = new Map<string, EmrServer>();
  for (const item of text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)) {
    const at = item.indexOf('=');
    const tenant = at > 0 ? item.slice(0, at).trim() : '';
    const value = at > 0 ? item.slice(at + 1).trim() : '';
    if (value === 'builtin' || value === 'none') {
      servers.set(tenant, { kind: value });
    } else if (tenant && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)) {
      servers.set(tenant, { kind: 'fhir-r4', baseUrl: value.replace(/\/+$/, '') });
    } else {
      ctx.addIssue({
        code: 'custom',
        message: `'${item}' must be tenant=builtin, tenant=none or tenant=<http(s) URL of a FHIR R4 server>`,
      });
    }
  }
  return servers;
}

/** Every environment variable the server reads. README's configuration table lists the same. */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: whole(0, 65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url({ message: 'must be a full URL such as http://localhost:8080' }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  WEB_DIST: z.string().optional(),
  AUDIT_JOURNAL_DIR: z.string().min(1).optional(),
  AUDIT_JOURNAL_FLUSH_MS: whole(5, 5000).default(100),
  AUDIT_JOURNAL_MAX_BYTES: whole(65_536).default(268_435_456),
  BODY_LIMIT_BYTES: whole(1024).default(1_048_576),
  OIDC_ISSUER: z
    .url({ message: 'must be the issuer URL, e.g. https://accounts.google.com' })
    .optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_ALLOWED_DOMAINS: list,
  ADMIN_EMAILS: list,
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_SECONDS: whole(30, 3600).default(300),
  SESSION_IDLE_MINUTES: whole(1).default(30),
  SESSION_ABSOLUTE_HOURS: whole(1).default(12),
  SIGN_IN_RATE_LIMIT: whole(1).default(30),
  API_RATE_LIMIT: whole(1).default(6000),
  PORTAL_ENVIRONMENT: PortalEnvironment.optional(),
  HELP_CENTER_URL: optionalUrl,
  SYNTHETIC_TEST_CASE_URL: optionalUrl,
  TERMS_URL: optionalUrl,
  PRIORITY_WS_URL: z.string().default('/ws/priority'),
  DEMO: flag,
  JOB_LEASE_SECONDS: whole(5).default(600),
  JOB_MAX_ATTEMPTS: whole(1, 100).default(5),
  SOCKET_HEARTBEAT_SECONDS: seconds(0.05).default(15),
  LEASE_SWEEP_SECONDS: seconds(0.05).default(15),
  NODE_ID: z.string().min(1).max(100).optional(),
  DEMO_API_KEY: z
    .string()
    .regex(/^ldk_[0-9a-f]{8}_[A-Za-z0-9_-]{20,200}$/, 'must be an API key ldk_<8 hex>_<secret>')
    .optional(),
  EMR_SERVERS: z
    .string()
    .default('')
    .transform((text, ctx) => parseEmrServers(text, ctx)),
  EMR_TIMEOUT_SECONDS: seconds(0.05).default(5),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  LOOPDESK_VERSION: z.string().optional(),
  ASSISTANT_WEBHOOK_URL: z
    .url({ message: 'must be the full URL of the assistant webhook, e.g. https://assistant/hooks' })
    .optional(),
  ASSISTANT_WEBHOOK_SECRET: z
    .string()
    .regex(
      /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/,
      'must be whsec_ followed by at least 24 bytes in base64, e.g. whsec_$(openssl rand -base64 32)',
    )
    .optional(),
  WEBHOOK_MAX_ATTEMPTS: whole(1, 100).default(12),
  WEBHOOK_POLL_MS: whole(10, 3_600_000).default(1000),
  KB_PATH: z.string().min(1).default('data/kb/kb.json'),
  NLP_MAX_TEXT_CHARS: whole(1, 1_000_000).default(20_000),
  /** Conversations one exception reviewer holds at most (issue 5). */
  EXCEPTION_REVIEWER_CAPACITY: whole(1, 100).default(3),
  /** How long the portal waits for the assistant to answer a question (issue 4). */
  ASSISTANT_REQUEST_TIMEOUT_SECONDS: seconds(0.05)
    .max(120, { message: 'must be at most 120' })
    .default(10),
  /** How long an intent's context menu from the assistant is reused; 0 asks every time. */
  CONTEXT_MENU_CACHE_SECONDS: seconds(0).default(300),
  /** A bearer token that lets a scraper read /metrics from any address (platform/metrics.ts). */
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{32,}$/, 'must be at least 32 printable characters without spaces')
    .optional(),
  /** Addresses served /metrics without the token; loopback when unset and no token is set. */
  METRICS_ALLOW: addressList.optional(),
  /** Largest original document an upload takes (issue 12): 50 MiB by default. */
  DOCUMENT_MAX_BYTES: whole(1024, 2_147_483_647).default(52_428_800),
  /** Where documents are kept (docs/data-preparation.md): PostgreSQL, or an S3-compatible store. */
  DOCUMENT_STORE: z.enum(['postgres', 's3']).default('postgres'),
  DOCUMENT_S3_ENDPOINT: z
    .url({ message: 'must be the store’s URL, e.g. https://s3.eu-west-1.amazonaws.com' })
    .optional(),
  DOCUMENT_S3_BUCKET: z.string().min(1).optional(),
  DOCUMENT_S3_REGION: z.string().min(1).default('us-east-1'),
  DOCUMENT_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  DOCUMENT_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Push broadcasts to every patient the whole portal may queue in an hour (issue 15). */
  PUSH_BROADCASTS_PER_HOUR: whole(1, 10_000).default(5),
  /** Test pushes one member of staff may send in an hour (issue 15). */
  PUSH_TESTS_PER_HOUR: whole(1, 10_000).default(30),
  /** Signs telehealth deep links (HMAC-SHA256); derived from the session secret when unset. */
  DEEP_LINK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Where a telehealth deep link opens (the patient app); the token is added as `?token=`. */
  DEEP_LINK_BASE_URL: optionalUrl,
  /** What `/` embeds (issue 16): the built-in analytics page, or a Metabase dashboard. */
  ANALYTICS_EMBED: z.enum(['builtin', 'metabase']).default('builtin'),
  /** How long a signed dashboard address may be opened (the page then reads with a view token). */
  ANALYTICS_EMBED_TTL_SECONDS: whole(10, 3600).default(300),
  /** How long the built-in page, once open, reads its figures before it must be opened again. */
  ANALYTICS_VIEW_TTL_SECONDS: whole(60, 86_400).default(43_200),
  /** How often the analytics rollups are brought up to date in the background. */
  ANALYTICS_REFRESH_SECONDS: whole(1, 3600).default(30),
  /** The share of federated jobs also sent, unseen, to a second technician (issue 16), 0 to 1. */
  AGREEMENT_SAMPLE_SHARE: z.coerce
    .number({ message: 'must be a number from 0 to 1' })
    .min(0, 'must be a number from 0 to 1')
    .max(1, 'must be a number from 0 to 1')
    .default(0.05),
  /** Deliveries of an agreement sample before it is given up (cancelled, never the assistant's). */
  AGREEMENT_MAX_ATTEMPTS: whole(1, 10).default(2),
  /** Metabase signed embedding: the site, its embedding secret key, the dashboard, its params. */
  METABASE_SITE_URL: z.url({ message: 'must be the Metabase site address' }).optional(),
  METABASE_SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  METABASE_DASHBOARD_ID: whole(1).optional(),
  METABASE_PARAMS: z
    .string()
    .transform((value, context) => {
      try {
        const parsed: unknown = JSON.parse(value);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
          return parsed as Record<string, unknown>;
        }
      } catch {
        // reported below
      }
      context.addIssue({ code: 'custom', message: 'must be a JSON object, e.g. {"tenant":"t1"}' });
      return z.NEVER;
    })
    .optional(),
});

export type Env = z.infer<typeof EnvSchema>;

/** Rules between variables, checked on the raw values so they are listed with the others. */
function crossChecks(source: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  if (source.OIDC_ISSUER) {
    for (const key of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET']) {
      if (!source[key]) {
        problems.push(`${key}: is required when OIDC_ISSUER is set`);
      }
    }
  }
  if (source.DOCUMENT_STORE === 's3') {
    for (const key of [
      'DOCUMENT_S3_ENDPOINT',
      'DOCUMENT_S3_BUCKET',
      'DOCUMENT_S3_ACCESS_KEY_ID',
      'DOCUMENT_S3_SECRET_ACCESS_KEY',
    ]) {
      if (!source[key]) {
        problems.push(`${key}: is required when DOCUMENT_STORE is s3`);
      }
    }
  }
  if (source.NODE_ENV === 'production' && source.DATABASE_URL && !source.AUDIT_JOURNAL_DIR) {
    problems.push(
      'AUDIT_JOURNAL_DIR: is required when DATABASE_URL is set in production: a folder on ' +
        'persistent storage of this node (one per node) where patient-data audit entries wait for the database',
    );
  }
  if (source.ASSISTANT_WEBHOOK_URL && !source.ASSISTANT_WEBHOOK_SECRET) {
    problems.push('ASSISTANT_WEBHOOK_SECRET: is required when ASSISTANT_WEBHOOK_URL is set');
  }
  if (source.ANALYTICS_EMBED === 'metabase') {
    for (const key of ['METABASE_SITE_URL', 'METABASE_SECRET_KEY', 'METABASE_DASHBOARD_ID']) {
      if (!source[key]) {
        problems.push(`${key}: is required when ANALYTICS_EMBED is metabase`);
      }
    }
  }
  if (source.NODE_ENV === 'production') {
    if (!source.OIDC_ISSUER) {
      problems.push(
        'OIDC_ISSUER: is required in production: the development sign-in refuses to start there',
      );
    }
    if (!source.SESSION_SECRET) {
      problems.push('SESSION_SECRET: is required in production');
    }
  }
  return problems;
}

/** Resolved configuration used by the app. */
export interface Config {
  readonly env: Env;
  readonly nodeEnv: Env['NODE_ENV'];
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly dataDir: string;
  /** `undefined` means embedded PGlite under dataDir (or in memory for tests). */
  readonly databaseUrl: string | undefined;
  /** Embedded database location: a directory, or `memory://` for tests. */
  readonly pgliteDataDir: string;
  /**
   * The node's audit journal folder (platform/audit-journal.ts): AUDIT_JOURNAL_DIR; else beside
   * an embedded database's folder (`<pgliteDataDir>-audit-journal`), or DATA_DIR/audit-journal
   * in development with PostgreSQL; undefined (a temporary folder, removed at close) for an
   * in-memory database or a test on PostgreSQL, whose trail ends with them.
   */
  readonly auditJournalDir: string | undefined;
  readonly webDist: string;
  readonly sessionSecret: string;
  readonly devSignIn: boolean;
  readonly version: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Variables whose value is a secret: a bad one is described, never echoed into the log. */
const SECRET_VARIABLES: ReadonlySet<string> = new Set([
  'SESSION_SECRET',
  'OIDC_CLIENT_SECRET',
  'ASSISTANT_WEBHOOK_SECRET',
  'DEMO_API_KEY',
  'METRICS_TOKEN',
  'DOCUMENT_S3_SECRET_ACCESS_KEY',
  'DEEP_LINK_SECRET',
  'METABASE_SECRET_KEY',
]);

/** How a bad value is quoted in the list of problems: secrets and URL passwords stay hidden. */
function shownValue(key: string, value: string): string {
  if (SECRET_VARIABLES.has(key)) {
    return `a value of ${value.length} characters`;
  }
  // postgres://user:password@host, redis://:password@host: keep everything but the password.
  return `'${value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@')}'`;
}

/** Parses the environment; throws a ConfigError listing each bad variable. */
export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = EnvSchema.safeParse(cleaned);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => {
        const key = issue.path.join('.') || '(environment)';
        const value = source[key];
        return `${key}${value === undefined ? '' : ` (got ${shownValue(key, value)})`}: ${issue.message}`;
      });
  problems.push(...crossChecks(cleaned));
  if (!result.success || problems.length > 0) {
    throw new ConfigError(problems);
  }
  return result.data;
}

/** Repository root: apps/server/src/platform → ../../../.. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');

function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) {
    return readFileSync(file, 'utf8').trim();
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** Builds the configuration from the environment (and overrides, for tests). */
export function loadConfig(
  source: NodeJS.ProcessEnv = process.env,
  overrides: { pgliteDataDir?: string } = {},
): Config {
  const env = parseEnv(source);
  const dataDir = path.resolve(REPO_ROOT, env.DATA_DIR);
  const inMemory = overrides.pgliteDataDir?.startsWith('memory://') ?? false;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  return {
    env,
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicUrl,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    pgliteDataDir: overrides.pgliteDataDir ?? path.join(dataDir, 'pg'),
    auditJournalDir: env.AUDIT_JOURNAL_DIR
      ? path.resolve(REPO_ROOT, env.AUDIT_JOURNAL_DIR)
      : env.DATABASE_URL
        ? env.NODE_ENV === 'test'
          ? undefined
          : path.join(dataDir, 'audit-journal')
        : inMemory
          ? undefined
          : `${overrides.pgliteDataDir ?? path.join(dataDir, 'pg')}-audit-journal`,
    webDist: path.resolve(REPO_ROOT, env.WEB_DIST ?? 'apps/web/dist'),
    sessionSecret:
      env.SESSION_SECRET ??
      (inMemory ? randomBytes(48).toString('base64url') : persistedSecret(dataDir)),
    devSignIn: !env.OIDC_ISSUER,
    version: env.LOOPDESK_VERSION ?? gitVersion(),
  };
}

function gitVersion(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return `0.1.0+${sha.toString().trim()}`;
  } catch {
    return '0.1.0';
  }
}

/** Whether this node delivers the outbox to the assistant's webhook (and so records deliveries). */
export function hasWebhook(config: Config): boolean {
  return Boolean(config.env.ASSISTANT_WEBHOOK_URL && config.env.ASSISTANT_WEBHOOK_SECRET);
}

/** The environment that colours the top bar. */
export function portalEnvironment(config: Config): PortalEnvironment {
  if (config.env.PORTAL_ENVIRONMENT) {
    return config.env.PORTAL_ENVIRONMENT;
  }
  return config.nodeEnv === 'production' ? 'production' : 'localhost';
}
