import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ZodType } from 'zod';
import { sql } from 'kysely';
import { API_ROUTES, API_V1_ROUTES, routeKey } from '@loopdesk/contracts/routes.ts';
import { ERROR_NAMES, ErrorBody } from '@loopdesk/contracts/errors.ts';
import { ROLES } from '@loopdesk/contracts/privileges.ts';
import { MAX_FRAME_BYTES, SOCKET_PATHS } from '@loopdesk/contracts/realtime.ts';
import {
  isStaffAccess,
  type ApiRoute,
  type ApiV1Route,
} from '@loopdesk/contracts/routes/api-route.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { openSocket } from '../test/socket-client.ts';
import { tokenForRoles } from '../test/tokens.ts';
import { bodyOf, paramOf, queryOf, type RawBody } from '../test/fuzz-arbitraries.ts';

/**
 * The fuzz drill. Every route of the table (the /internal routes with a token holding every role,
 * the /api/v1 routes with an API key) is called with params, queries and bodies drawn from its
 * schemas and mutated: wrong types, missing and extra fields, huge strings, deep nesting, NUL and
 * odd unicode, `__proto__` keys, malformed JSON. Every socket kind is sent malformed and oversized
 * frames. What must still hold: no 5xx, no crash, every refusal in the one error shape, and a
 * refused request changes nothing (the tables, audit trail aside, hash the same before and after).
 *
 * CI runs FUZZ_RUNS (default 6) cases per route with a fixed seed (FUZZ_SEED, default 18);
 * `npm run fuzz` runs many more.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
const SEED = Number(process.env.FUZZ_SEED ?? 18);

/**
 * Tables a refused request may change or that change on their own: the audit trail (refusals are
 * audited), sessions (last seen), and what timers and workers write in the background.
 */
const VOLATILE_TABLES = new Set([
  'audit_events',
  // Each node's audit journal mark, moved by the journal's flusher with the entries it inserts.
  'audit_journal_marks',
  'kysely_migration',
  'kysely_migration_lock',
  'auth_sessions',
  'technician_sessions',
  // The analytics rollups, refreshed by a timer from the events (derived data).
  'analytics_discards',
  'analytics_handovers',
  'analytics_hourly',
  'analytics_jobs',
  'analytics_refresh',
]);

type AnyRoute = (ApiRoute | ApiV1Route) & { readonly kind: 'internal' | 'v1' };
const ROUTES: AnyRoute[] = [
  ...API_ROUTES.filter((r) => isStaffAccess(r.access)).map((r) => ({
    ...r,
    kind: 'internal' as const,
  })),
  ...API_V1_ROUTES.map((r) => ({ ...r, kind: 'v1' as const })),
];

describe('the fuzz drill: every route and socket kind, fed mutated input', () => {
  let t: TestApp;
  let staff: string;
  let key: string;
  let tables: string[] = [];
  const known = ['acme', 'conv-fuzz', 'bot-conv-fuzz', 'patient-fuzz'];

  /** One hash per table (count and content), audit trail and background tables aside. */
  async function snapshot(): Promise<Record<string, string>> {
    const query = tables
      .map(
        (table) =>
          `select '${table}' as t, count(*)::text || ':' || coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as h from "${table}" x`,
      )
      .join(' union all ');
    const rows = await sql<{ t: string; h: string }>`${sql.raw(query)}`.execute(t.database.db);
    return Object.fromEntries(rows.rows.map((row) => [row.t, row.h]));
  }

  beforeAll(async () => {
    t = await startTestApp({ listen: true, env: { ASSISTANT_REQUEST_TIMEOUT_SECONDS: '0.2' } });
    staff = (await tokenForRoles(t, 'fuzz@example.test', [...ROLES])).token;
    const admin = (await tokenForRoles(t, 'fuzz-admin@example.test', ['admin'])).token;
    const created = await t.app.inject({
      method: 'POST',
      url: '/internal/integration/api-keys',
      headers: { authorization: `Bearer ${admin}` },
      payload: { name: 'fuzz' },
    });
    key = created.json<{ key: string }>().key;
    const conversation = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/conversations/conv-fuzz',
      headers: { authorization: `Bearer ${key}` },
      payload: {
        tenant: 'acme',
        botConversationId: 'bot-conv-fuzz',
        consumer: { id: 'patient-fuzz', name: { given: 'Maya', family: 'Okafor' } },
      },
    });
    expect(conversation.statusCode, conversation.body).toBe(201);
    const listed = await sql<{ table_name: string }>`
      select table_name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(t.database.db);
    tables = listed.rows.map((row) => row.table_name).filter((name) => !VOLATILE_TABLES.has(name));
    expect(tables.length).toBeGreaterThan(10);
  });
  afterAll(async () => {
    await t.close();
  });

  const seen = { requests: 0, refused: 0, byStatus: new Map<number, number>() };

  it.each(ROUTES.map((route) => [routeKey(route), route] as const))(
    '%s: no 5xx, refusals in the error shape and without effect',
    async (_name, route) => {
      const paramNames = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] ?? '');
      const paramShape =
        (route.params as unknown as { shape?: Record<string, ZodType> } | undefined)?.shape ?? {};
      const hasBody = route.method !== 'GET' && route.body !== undefined;
      const requestArb = fc.record({
        params: fc.tuple(...paramNames.map((name) => paramOf(paramShape[name], known))),
        query: queryOf(route.query, known),
        body: hasBody ? bodyOf(route.body, known) : fc.constant<RawBody | undefined>(undefined),
        tenant: fc.constantFrom<string | undefined>('acme', undefined, 'other', 'a\u0000b'),
      });
      await fc.assert(
        fc.asyncProperty(requestArb, async (request) => {
          let url = route.path;
          paramNames.forEach((name, i) => {
            url = url.replace(`:${name}`, encodeURIComponent(request.params[i] ?? ''));
          });
          const search = new URLSearchParams(request.query).toString();
          const before = await snapshot();
          const response = await t.app.inject({
            method: route.method,
            url: search ? `${url}?${search}` : url,
            headers: {
              authorization: `Bearer ${route.kind === 'v1' ? key : staff}`,
              ...(request.tenant === undefined
                ? {}
                : { 'x-tenant-id': encodeURIComponent(request.tenant) }),
              ...(request.body ? { 'content-type': 'application/json' } : {}),
            },
            ...(request.body ? { payload: request.body.text } : {}),
          });
          const what = `${route.method} ${url.slice(0, 120)}?${search.slice(0, 120)} body(${request.body?.mutation.slice(0, 80) ?? 'none'}) -> ${response.statusCode} ${response.body.slice(0, 200)}`;
          seen.requests++;
          seen.byStatus.set(response.statusCode, (seen.byStatus.get(response.statusCode) ?? 0) + 1);
          // No assistant and no EMR answer in this drill: a route that relays to one may answer
          // the upstream statuses its contract declares (502/503/504), in the error shape.
          const upstream = [502, 503, 504].filter((status) => route.response?.[status]);
          if (!upstream.includes(response.statusCode)) {
            expect(response.statusCode, what).toBeLessThan(500);
          }
          if (response.statusCode >= 400) {
            seen.refused++;
            const body: unknown = response.json();
            expect(ErrorBody.strict().safeParse(body).success, what).toBe(true);
            expect((body as { error: string }).error, what).toBe(
              ERROR_NAMES[response.statusCode as keyof typeof ERROR_NAMES],
            );
            // A refusal (4xx) changes nothing; an upstream timeout (504) did relay the request.
            if (response.statusCode < 500) {
              const after = await snapshot();
              const changed = tables.filter((table) => after[table] !== before[table]);
              expect(changed, `state changed by a refused request: ${what}`).toEqual([]);
            }
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    },
  );

  it.each(Object.entries(SOCKET_PATHS))(
    'socket %s: malformed and oversized frames are answered with an error event, nothing changes',
    async (_kind, path) => {
      const socket = await openSocket(t.baseUrl, path, staff);
      try {
        await socket.next('technician.session.paused');
        const before = await snapshot();
        const frames: string[] = [
          'not json',
          '',
          'null',
          '42',
          '[]',
          '"text"',
          '{',
          '{}',
          '{"specversion":"1.0"}',
          JSON.stringify({ specversion: '1.0', id: 'x', type: 'no.such.type', source: '/portal' }),
          JSON.stringify({ specversion: 2, id: [], type: {}, source: null, data: 'x' }),
          '{"__proto__":{"isAdmin":true},"specversion":"1.0","id":"p","type":"message.annotation","source":"/portal","data":{"__proto__":{"x":1}}}',
          JSON.stringify({
            specversion: '1.0',
            id: 'n',
            type: 'message.annotation',
            source: '/portal',
            data: JSON.parse('{"a":' + '['.repeat(2000) + ']'.repeat(2000) + '}') as unknown,
          }),
          JSON.stringify({
            specversion: '1.0',
            id: 'u',
            type: 'message.annotation',
            source: '/portal',
            data: { jobId: '\ud83d', conversationId: '\u202e\u0000' },
          }),
          'x'.repeat(MAX_FRAME_BYTES + 1),
        ];
        for (const frame of frames) {
          const count = socket.received.filter((e) => e.type === 'error').length;
          socket.sendRaw(frame);
          const error = await socket.next('error');
          expect(typeof error.data.message, frame.slice(0, 80)).toBe('string');
          expect(socket.received.filter((e) => e.type === 'error').length).toBe(count + 1);
        }
        socket.ws.send(Buffer.from([0, 1, 2, 3]), { binary: true });
        expect((await socket.next('error')).data.message).toMatch(/Binary frames/);
        expect(await snapshot()).toEqual(before);
        // Over the 1 MiB the socket reads at all: closed with 1009 (message too big), no crash.
        socket.sendRaw('y'.repeat(1024 * 1024 + 1));
        expect((await socket.closed).code).toBe(1009);
      } finally {
        socket.ws.close();
      }
      const health = await fetch(`${t.baseUrl}/healthz`);
      expect(health.status).toBe(200);
    },
  );

  it('the server still answers after the whole drill', async () => {
    const health = await fetch(`${t.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    // The figures of the run, for the CI log.
    console.info(
      `fuzz: ${seen.requests} requests over ${ROUTES.length} routes (seed ${SEED}, ${RUNS} per route), ${seen.refused} refused; by status ${JSON.stringify(Object.fromEntries([...seen.byStatus].sort((a, b) => a[0] - b[0])))}`,
    );
  });
});
