import Fastify from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import { describe, expect, it } from 'vitest';
import { securityHeadersPlugin } from './security-headers.ts';

/** The app's options (app.ts), over http and behind TLS. */
const optionsFor = (https: boolean): FastifyHelmetOptions => ({
  crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  strictTransportSecurity: https,
  contentSecurityPolicy: {
    useDefaults: true,
    directives: {
      'upgrade-insecure-requests': https ? [] : null,
      'img-src': ["'self'", 'data:', 'https:'],
      'frame-src': ["'self'", 'https:', 'blob:'],
    },
  },
});

/** The headers of a 200 and of a 401 of a small app guarded one way or the other. */
async function answers(guard: 'helmet' | 'once', options: FastifyHelmetOptions) {
  const app = Fastify({ logger: false });
  await app.register(guard === 'helmet' ? helmet : securityHeadersPlugin, options);
  app.get('/ok', () => ({ ok: true }));
  app.get('/refused', { onRequest: async (_r, reply) => reply.status(401).send({}) }, () => ({}));
  app.get('/own', (_request, reply) =>
    reply.header('content-security-policy', "default-src 'none'").send('page'),
  );
  const headers = [];
  for (const url of ['/ok', '/refused', '/own']) {
    const { date: _date, ...rest } = (await app.inject({ url })).headers;
    headers.push(rest);
  }
  await app.close();
  return headers;
}

describe('security headers worked out once', () => {
  for (const https of [false, true]) {
    it(`are those @fastify/helmet sends, header for header (${https ? 'behind TLS' : 'http'})`, async () => {
      const expected = await answers('helmet', optionsFor(https));
      expect(expected[0]?.['content-security-policy']).toContain("script-src 'self'");
      expect(await answers('once', optionsFor(https))).toEqual(expected);
    });
  }
});
