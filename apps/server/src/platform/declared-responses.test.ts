import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkResponses, declareApiResponses } from './declared-responses.ts';
import { errorsPlugin } from './errors.ts';

describe('declared responses and the test-only response check', () => {
  let app: FastifyInstance;
  const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);

  beforeAll(async () => {
    app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(errorsPlugin);
    await app.register(rateLimit, { global: false });
    declareApiResponses(app, { apiRateLimit: 100 });
    checkResponses(app);
    const Thing = z.object({ name: z.string() });
    app.post(
      '/internal/things',
      { schema: { body: Thing, response: { 201: Thing } } },
      (r, reply) => reply.status(201).send(r.body),
    );
    // Drifts: a status the route does not declare, and a body its schema refuses.
    app.get(
      '/internal/teapot',
      { schema: { response: { 200: Thing } } },
      (_r, reply: FastifyReply) => reply.status(418).send({ name: 'tea' }),
    );
    app.get('/internal/raw', { schema: { response: { 200: Thing } } }, (_r, reply) =>
      reply.type('application/json').send(JSON.stringify({ nom: 'x' })),
    );
    await app.ready();
  });
  afterAll(async () => {
    log.mockRestore();
    await app.close();
  });

  it('declares the common errors on a route: a body of another type is a 415 that passes the check', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/internal/things',
      payload: '<thing/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ error: 'Unsupported Media Type' });
  });

  it('lets a declared answer through', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/internal/things',
      payload: { name: 'a' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ name: 'a' });
  });

  it('turns an undeclared status or a body the schema refuses into a 500 naming the drift', async () => {
    const teapot = await app.inject({ method: 'GET', url: '/internal/teapot' });
    expect(teapot.statusCode).toBe(500);
    expect(teapot.json().message).toMatch(
      /GET \/internal\/teapot answered 418, which its route does not declare/,
    );
    const raw = await app.inject({ method: 'GET', url: '/internal/raw' });
    expect(raw.statusCode).toBe(500);
    expect(raw.json().message).toMatch(/with a body its schema refuses/);
    expect(log).toHaveBeenCalled();
  });
});
