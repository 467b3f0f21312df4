import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationSearchQuery } from '@loopdesk/contracts/conversation-insights.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { searchStatement } from './repository.ts';

type Found = { conversationId: string; status: string; patient: { name: string } };

/**
 * Finding conversations (issue 14): the dropdown's list and the search by patient name,
 * conversation id, dates, finding or condition, and status, paged; only
 * patient:conversations:search lists, every search is audited; on PostgreSQL, the plan of each
 * filter over 100,000 conversations uses an index.
 */
describe('finding conversations', () => {
  let t: TestApp;
  let medical: string;
  let annotator: string;
  let key: string;

  const search = (query: string, token = medical, tenant?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/internal/conversations/_search${query ? `?${query}` : ''}`,
      headers: { authorization: `Bearer ${token}`, ...(tenant ? { 'x-tenant-id': tenant } : {}) },
    });
  const ids = async (query: string, tenant?: string) => {
    const response = await search(query, medical, tenant);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ items: Found[] }>().items.map((i) => i.conversationId);
  };
  const v1 = (method: 'PUT' | 'POST', url: string, payload: unknown) =>
    t.app.inject({
      method,
      url,
      payload: payload as Record<string, unknown>,
      headers: { authorization: `Bearer ${key}` },
    });
  const register = async (
    id: string,
    tenant: string,
    given: string,
    family: string,
    said: string,
  ) => {
    await v1('PUT', `/api/v1/conversations/${id}`, {
      tenant,
      consumer: { id: `patient-${id}`, name: { given, family } },
    });
    await v1('POST', `/api/v1/conversations/${id}/messages`, {
      id: 'm1',
      direction: 'IN',
      content: said,
    });
  };

  beforeAll(async () => {
    t = await startTestApp();
    medical = (await tokenForRoles(t, 'meg@example.test', ['medical'])).token;
    annotator = (await tokenForRoles(t, 'ann@example.test', ['annotator'])).token;
    const admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
    key = (
      await t.app.inject({
        method: 'POST',
        url: '/internal/integration/api-keys',
        payload: { name: 'search-test' },
        headers: { authorization: `Bearer ${admin}` },
      })
    ).json<{ key: string }>().key;
    await register('s-1', 'acme-clinic', 'Wren', 'Okafor', 'I have a fever and a sore throat.');
    await register('s-2', 'acme-clinic', 'Wrenna', 'Byrne', 'My chest hurts. No fever.');
    await register('s-3', 'globex', 'Ada', 'Okafor-Lee', 'I keep coughing.');
    await v1('POST', '/api/v1/conversations/s-2/handover', { reason: 'chest pain' });
    // s-3 started long ago.
    await sql`update conversations set created_at = '2020-01-15T10:00:00Z' where id = 's-3'`.execute(
      t.database.db,
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds by the start of a given, family or full name, in any case', async () => {
    expect(await ids('name=wren')).toEqual(['s-2', 's-1']);
    expect(await ids('name=WREN%20OK')).toEqual(['s-1']);
    expect(await ids('name=okafor')).toEqual(['s-1', 's-3']);
    // A percent sign is a letter, not a wildcard.
    expect(await ids('name=%25en')).toEqual([]);
  });

  it('finds by id, finding or condition, status and dates; the tenant header narrows', async () => {
    expect(await ids('id=s-2')).toEqual(['s-2']);
    // The patient reports a fever in s-1; in s-2 they deny it.
    expect(await ids('finding=fever')).toEqual(['s-1']);
    expect(await ids('finding=LD:sore-throat')).toEqual(['s-1']);
    expect(await ids('status=human')).toEqual(['s-2']);
    expect(await ids('status=open')).toEqual(['s-1', 's-3']);
    expect(await ids('status=ended')).toEqual([]);
    expect(await ids('to=2020-01-15')).toEqual(['s-3']);
    expect(await ids('from=2020-01-16')).toEqual(['s-2', 's-1']);
    expect(await ids('', 'globex')).toEqual(['s-3']);
    expect(await ids('name=okafor&status=open', 'acme-clinic')).toEqual(['s-1']);
  });

  it('pages newest first and says whether more follow', async () => {
    const first = await search('s=2&p=0');
    expect(first.json()).toMatchObject({ page: { number: 0, size: 2, hasMore: true } });
    const second = await search('s=2&p=1');
    expect(second.json()).toMatchObject({ page: { number: 1, hasMore: false } });
    const all = [
      ...first.json<{ items: Found[] }>().items,
      ...second.json<{ items: Found[] }>().items,
    ];
    expect(all.map((i) => i.conversationId)).toEqual(['s-2', 's-1', 's-3']);
    expect(all[0]).toMatchObject({ status: 'human', patient: { name: 'Wrenna Byrne' } });
  });

  it('refuses malformed parameters with what to fix, and changes nothing', async () => {
    for (const [query, path] of [
      ['s=0', 's'],
      ['p=-1', 'p'],
      ['status=pending', 'status'],
      ['from=yesterday', 'from'],
      ['from=2024-02-30', 'from'],
      ['from=2024-03-02&to=2024-03-01', 'to'],
      ['name=a', 'name'],
      ['id=a%20b', 'id'],
    ] as const) {
      const response = await search(query);
      expect(response.statusCode, query).toBe(400);
      const body = response.json<{ details?: { path: string }[] }>();
      expect(
        body.details?.some((d) => d.path.endsWith(path)),
        `${query}: ${response.body}`,
      ).toBe(true);
    }
  });

  it('lists and searches only with patient:conversations:search, and audits each search', async () => {
    expect((await search('name=wren', annotator)).statusCode).toBe(403);
    const list = await t.app.inject({
      method: 'GET',
      url: '/internal/intelligence/demo/conversations',
      headers: { authorization: `Bearer ${annotator}` },
    });
    expect(list.statusCode).toBe(403);
    await search('name=byrne');
    const { rows } = await sql<{
      actor_email: string;
      details: { filters: unknown; conversations: string[] };
    }>`
      select actor_email, details from audit_events where action = 'conversation.search'
      order by id desc limit 1`.execute(t.database.db);
    expect(rows[0]).toMatchObject({
      actor_email: 'meg@example.test',
      details: { filters: { name: 'byrne' }, conversations: ['s-2'] },
    });
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'on PostgreSQL, every filter over 100,000 conversations is planned with an index',
    async () => {
      const db = t.database.db;
      // 100,000 patients and conversations, one finding each (5,000 kinds), in set-based inserts;
      // the rows are generated consistent, so their foreign-key triggers are skipped for speed.
      await db.transaction().execute(async (trx) => {
        await sql`set local session_replication_role = replica`.execute(trx);
        await sql`
          insert into consumers (id, tenant, given_name, family_name)
          select 'bulk-p' || i, 'tenant-' || (i % 20), 'Given' || i, 'Family' || i
          from generate_series(1, 100000) i;
          insert into conversations (id, tenant, consumer_id, created_at, status, end_type)
          select 'bulk-c' || i, 'tenant-' || (i % 20), 'bulk-p' || i,
            now() - (i || ' minutes')::interval,
            case when i % 3 = 0 then 'ended' else 'open' end,
            case when i % 3 = 0 then 'END' end
          from generate_series(1, 100000) i;
          insert into conversation_memory_vertices
            (conversation_id, id, kind, label, concept_id, presence, source)
          select 'bulk-c' || i, 'finding:LD:bulk-' || (i % 5000), 'finding',
            'bulk finding ' || (i % 5000), 'LD:bulk-' || (i % 5000), 'endorse', 'patient'
          from generate_series(1, 100000) i;
        `.execute(trx);
      });
      await sql`analyze consumers; analyze conversations; analyze conversation_memory_vertices`.execute(
        db,
      );
      const scope = { tenant: undefined, includeRestricted: false };
      const plans: Record<string, string> = {};
      for (const [name, query, tenant] of [
        ['newest first', {}, undefined],
        ['a tenant', {}, 'tenant-7'],
        ['a patient name', { name: 'family4242' }, undefined],
        ['a finding', { finding: 'bulk finding 17' }, undefined],
        ['a concept id', { finding: 'LD:bulk-17' }, undefined],
        ['a conversation id', { id: 'bulk-c777' }, undefined],
        [
          'ended in a date range',
          { status: 'ended', from: '2020-01-01', to: '2100-01-01' },
          undefined,
        ],
      ] as const) {
        const statement = searchStatement(ConversationSearchQuery.parse(query), {
          ...scope,
          tenant,
        }).compile(db);
        const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>({
          ...statement,
          sql: `explain ${statement.sql}`,
        });
        const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
        plans[name] = plan;
        expect(plan, `${name}:\n${plan}`).toMatch(/Index/);
        expect(plan, `${name}:\n${plan}`).not.toMatch(
          /Seq Scan on (conversations|consumers|conversation_memory_vertices)/,
        );
      }
      expect(plans['a patient name']).toMatch(/consumers_(given|family|full)_name_idx/);
      expect(plans['a finding']).toMatch(/conversation_memory_label_idx/);
      expect(plans['newest first']).toMatch(/conversations_created_idx/);
    },
    120_000,
  );
});
