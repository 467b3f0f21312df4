import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { sql } from 'kysely';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import type { AuthoringJob } from '@loopdesk/contracts/routes/authoring.ts';
import type { TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';

/** A client of the authoring routes for one signed-in user. */
export async function author(t: TestApp, email: string, roles: readonly Role[]) {
  const { token, userId } = await tokenForRoles(t, email, roles);
  const auth = { authorization: `Bearer ${token}` };
  const base = '/internal/authoring/jobs';
  const post = (url: string, payload?: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    userId,
    email,
    auth,
    list: (query = '') => t.app.inject({ method: 'GET', url: `${base}${query}`, headers: auth }),
    get: (key: string) => t.app.inject({ method: 'GET', url: `${base}/${key}`, headers: auth }),
    job: async (key: string) => {
      const response = await t.app.inject({ method: 'GET', url: `${base}/${key}`, headers: auth });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<AuthoringJob>();
    },
    take: (key: string) => post(`${base}/${key}/_take`),
    release: (key: string) => post(`${base}/${key}/_release`),
    draft: (key: string, body: unknown) => post(`${base}/${key}/draft`, body),
    submit: (key: string, body: unknown) => post(`${base}/${key}/submit`, body),
    review: (key: string, body: unknown) => post(`${base}/${key}/review`, body),
  };
}

export type Author = Awaited<ReturnType<typeof author>>;

/** A client of the data preparation calls a test needs to make work for annotation. */
export async function preparer(t: TestApp, email: string, roles: readonly Role[]) {
  const { token } = await tokenForRoles(t, email, roles);
  const auth = { authorization: `Bearer ${token}` };
  const base = '/internal/data-preparation';
  return {
    async upload(fileName: string, text: string, fields: Record<string, string>) {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) {
        form.append(name, value);
      }
      form.append('file', new Blob([text], { type: 'text/plain' }), fileName);
      const request = new Request('http://localhost/', { method: 'POST', body: form });
      return t.app.inject({
        method: 'POST',
        url: `${base}/documents`,
        headers: { ...auth, 'content-type': request.headers.get('content-type') ?? '' },
        payload: Buffer.from(await request.arrayBuffer()),
      });
    },
    get: (key: string) =>
      t.app.inject({ method: 'GET', url: `${base}/metadata/${key}`, headers: auth }),
    save: (job: unknown) =>
      t.app.inject({
        method: 'POST',
        url: `${base}/metadata`,
        headers: auth,
        payload: job as object,
      }),
  };
}

/**
 * A guideline document in DOCUMENT_APPROVED with `text` as its prepared text and asthma
 * (C0004096) as its concept: registered and prepared by one user, approved by another.
 */
export async function approvedDocument(t: TestApp, text: string): Promise<string> {
  const pat = await preparer(t, 'pat.preparer@example.test', ['experimental']);
  const rita = await preparer(t, 'rita.reviewer@example.test', ['experimental']);
  const uploaded = await pat.upload('asthma.txt', text, {
    name: 'Asthma in adults',
    source: 'National guideline body',
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const { key } = uploaded.json<{ key: string }>();
  const job = (await pat.get(key)).json<Record<string, unknown>>();
  const submitted = await pat.save({
    ...job,
    status: 'PREPARED_FOR_REVIEW',
    provenance: [{ source: 'National guideline body', publishedDate: null, pageNumber: null }],
    classification: [{ system: 'UMLS', code: 'C0004096', display: 'asthma' }],
    preparedText: text,
  });
  expect(submitted.statusCode, submitted.body).toBe(200);
  const approved = await rita.save({
    ...submitted.json<Record<string, unknown>>(),
    status: 'DOCUMENT_APPROVED',
  });
  expect(approved.statusCode, approved.body).toBe(200);
  return key;
}

/** An entity of `text` at the first occurrence of `extract` (after `from`). */
export function entityAt(
  text: string,
  extract: string,
  fields: Record<string, unknown> = {},
  from = 0,
) {
  const start = text.indexOf(extract, from);
  if (start < 0) {
    throw new Error(`'${extract}' is not in the text`);
  }
  return {
    id: randomUUID(),
    start,
    end: start + extract.length,
    extract,
    TUI: [],
    state: 'annotated',
    ...fields,
  };
}

export const provenance = (system = 'decoded-portal') => ({
  source: 'http://localhost/jobs/authoring-tasks/x',
  createdOn: new Date().toISOString(),
  system,
});

/** Audit entries of an action (and outcome) on a document. */
export async function audits(t: TestApp, action: string, key: string, outcome = 'success') {
  const { rows } = await sql<{ n: number }>`
    select count(*)::integer as n from audit_events
    where action = ${action} and outcome = ${outcome} and resource_id = ${key}
  `.execute(t.database.db);
  return rows[0]?.n ?? 0;
}
