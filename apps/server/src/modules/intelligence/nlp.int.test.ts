import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';

type Row = Record<string, unknown>;
/** A JSON list of the answer, for lookups. */
const list = (value: unknown): Row[] => value as Row[];
import { nlpAcceptRefusal } from './nlp-routes.ts';

// Fastify writes the version parameter quoted and adds the charset.
const VERSIONED = /^application\/vnd\.loopdesk\.nlp\+json; version="?0\.1\.0"?(; charset=utf-8)?$/;

describe('NLP API', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { NLP_MAX_TEXT_CHARS: '500' } });
    token = (await tokenForRoles(t, 'sam@example.test', ['sysadmin'])).token;
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: payload as Record<string, unknown>,
      headers: { authorization: `Bearer ${token}`, ...headers },
    });

  describe('POST /internal/nlp/evaluate', () => {
    it("marks 'no fever' negated and keeps offsets into the text as sent", async () => {
      const text = '  No fever but throwing up since yesterday';
      const response = await post('/internal/nlp/evaluate', { text });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(VERSIONED);
      const body = response.json();
      expect(body.text).toBe(text);
      const fever = list(body.entities).find((e) => e.id === 'LD:fever');
      expect(fever).toMatchObject({
        extractId: expect.stringMatching(/^x\d+$/),
        original: 'fever',
        negated: true,
        presence: 'deny',
      });
      expect(text.slice(Number(fever?.start), Number(fever?.end))).toBe('fever');
      expect(body.entities).toContainEqual(
        expect.objectContaining({ id: 'LD:vomiting', original: 'throwing up', negated: false }),
      );
      expect(body.entities).toContainEqual(
        expect.objectContaining({ id: 'onset', category: 'onset', original: 'since yesterday' }),
      );
      expect(list(body.observations).map((o) => o.id)).toEqual(
        expect.arrayContaining(['LD:fever', 'LD:vomiting']),
      );
      for (const list of [body.entities, body.phrases, body.observations]) {
        for (const item of list) {
          expect(item).toMatchObject({
            start: expect.any(Number),
            end: expect.any(Number),
            id: expect.any(String),
            extractId: expect.any(String),
          });
        }
      }
      expect(body.phrases.length).toBeGreaterThanOrEqual(2);
      // The test tool's state offers only what the patient endorses.
      expect(body.resolved.normalisedObservations).toEqual([
        { id: 'LD:vomiting', display: 'vomiting' },
      ]);
    });

    it('accepts the versioned media type, application/json and */*', async () => {
      for (const accept of [
        'application/vnd.loopdesk.nlp+json; version=0.1.0',
        'application/vnd.loopdesk.nlp+json;version="0.1.0"',
        'application/vnd.loopdesk.nlp+json',
        'application/json',
        '*/*',
        'text/html, application/json;q=0.9',
      ]) {
        const response = await post('/internal/nlp/evaluate', { text: 'fever' }, { accept });
        expect(response.statusCode, accept).toBe(200);
        expect(response.headers['content-type'], accept).toMatch(VERSIONED);
      }
    });

    it('refuses another version with 406 naming the supported one', async () => {
      const response = await post(
        '/internal/nlp/evaluate',
        { text: 'fever' },
        { accept: 'application/vnd.loopdesk.nlp+json; version=0.2.0' },
      );
      expect(response.statusCode).toBe(406);
      expect(response.json()).toEqual({
        error: 'Not Acceptable',
        message:
          'The NLP service speaks version 0.1.0, not 0.2.0: send Accept: application/vnd.loopdesk.nlp+json; version=0.1.0 (or application/json).',
      });
      const html = await post('/internal/nlp/entities', { text: 'fever' }, { accept: 'text/html' });
      expect(html.statusCode).toBe(406);
      expect(html.json().message).toMatch(/version 0\.1\.0/);
    });

    it('an empty text is a 400, a text over NLP_MAX_TEXT_CHARS a 413 with the limit', async () => {
      for (const payload of [{ text: '' }, { text: '   ' }, {}]) {
        const response = await post('/internal/nlp/evaluate', payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json().details[0].path).toBe('body.text');
      }
      const long = await post('/internal/nlp/evaluate', { text: 'a'.repeat(501) });
      expect(long.statusCode).toBe(413);
      expect(long.json()).toEqual({
        error: 'Payload Too Large',
        message:
          'The text is 501 characters long; the NLP service takes at most 500 characters (NLP_MAX_TEXT_CHARS).',
      });
      expect(long.headers['content-type']).toMatch(/^application\/json/);
    });

    it('needs a sign-in', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/internal/nlp/evaluate',
        payload: { text: 'fever' },
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('POST /internal/nlp/entities', () => {
    it('answers the automated recognition result with codings (resolve defaults to true)', async () => {
      const response = await post('/internal/nlp/entities', {
        text: 'I have a tummy ache and the flu',
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(VERSIONED);
      const { entities } = response.json();
      const pain = list(entities).find((e) => e.original === 'tummy ache');
      expect(pain).toMatchObject({
        start: 9,
        end: 19,
        semanticTypes: ['Sign or Symptom'],
      });
      expect(list(pain?.concepts)[0]).toMatchObject({
        coding: { display: 'abdominal pain', code: expect.any(String) },
        bestMatch: true,
      });
      const flu = list(entities).find((e) => String(e.original).endsWith('flu'));
      expect(flu?.semanticTypes).toEqual(['Disease or Syndrome']);
    });

    it('resolve=false gives the spans without concepts; a bad flag is a 400', async () => {
      const response = await post('/internal/nlp/entities?resolve=false', { text: 'tummy ache' });
      expect(response.statusCode).toBe(200);
      expect(response.json().entities).toEqual([
        {
          start: 0,
          end: 10,
          original: 'tummy ache',
          concepts: [],
          semanticTypes: ['Sign or Symptom'],
        },
      ]);
      expect((await post('/internal/nlp/entities?resolve=maybe', { text: 'x' })).statusCode).toBe(
        400,
      );
      expect((await post('/internal/nlp/entities', { text: 'b'.repeat(501) })).statusCode).toBe(
        413,
      );
      expect((await post('/internal/nlp/entities', { text: '' })).statusCode).toBe(400);
    });
  });

  describe('POST /internal/nlp/normalise', () => {
    it('normalises the entities of a text', async () => {
      const response = await post('/internal/nlp/normalise', { text: 'my belly ache, no fever' });
      expect(response.statusCode).toBe(200);
      const { entities } = response.json();
      expect(entities).toContainEqual(
        expect.objectContaining({
          extract: 'belly ache',
          concepts: expect.arrayContaining([
            expect.objectContaining({ id: 'LD:abdominal-pain', bestMatch: true }),
          ]),
        }),
      );
      expect(list(entities).map((e) => e.extract)).toContain('fever');
    });

    it('normalises extracts already cut out, typos included', async () => {
      const response = await post('/internal/nlp/normalise', {
        entities: [{ extract: 'throwing up', start: 4, end: 15 }, { extract: 'diarhea' }],
      });
      expect(response.statusCode).toBe(200);
      const [vomit, diarrhea] = response.json().entities;
      expect(vomit).toMatchObject({ extract: 'throwing up', start: 4, end: 15 });
      expect(vomit.concepts[0]).toMatchObject({ id: 'LD:vomiting', bestMatch: true });
      expect(diarrhea.concepts[0]).toMatchObject({ id: 'LD:diarrhea', bestMatch: true });
    });

    it('refuses a body with neither, an empty text and a long text', async () => {
      const neither = await post('/internal/nlp/normalise', {});
      expect(neither.statusCode).toBe(400);
      expect(neither.json().message).toMatch(/send either text or entities/);
      expect((await post('/internal/nlp/normalise', { text: ' ' })).statusCode).toBe(400);
      expect((await post('/internal/nlp/normalise', { text: 'c'.repeat(501) })).statusCode).toBe(
        413,
      );
      const empty = await post('/internal/nlp/normalise', { entities: [{ extract: ' ' }] });
      expect(empty.json().message).toBe('Invalid body: body.entities.0.extract must not be empty');
      const backwards = await post('/internal/nlp/normalise', {
        entities: [{ extract: 'tummy ache', start: 5, end: 2 }],
      });
      expect(backwards.statusCode).toBe(400);
      expect(backwards.json().details).toEqual([
        { path: 'body.entities.0.end', message: 'end must not come before start' },
      ]);
      const wrong = await post(
        '/internal/nlp/normalise',
        { text: 'fever' },
        { accept: 'application/vnd.loopdesk.nlp+json; version=1.0.0' },
      );
      expect(wrong.statusCode).toBe(406);
    });
  });

  it('reads Accept headers', () => {
    expect(nlpAcceptRefusal(undefined)).toBeUndefined();
    expect(nlpAcceptRefusal('application/*')).toBeUndefined();
    expect(nlpAcceptRefusal('application/json;q=0')).toMatch(/allows neither/);
  });
});
