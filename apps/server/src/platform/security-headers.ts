import Fastify, { type FastifyInstance } from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * The security headers of every answer (CSP, frame and content-type rules, HSTS behind TLS), as
 * `@fastify/helmet` sets them for these options, worked out once at start. The plugin itself
 * builds Helmet's middleware anew for every request (it parses every CSP directive each time),
 * which was a tenth of the cost of a small answer (bench/http.ts); the headers depend on the
 * options only, so one app-wide `onRequest` hook now copies them onto each reply. A route may
 * still set its own (the sign-in popup's page sends a stricter CSP with a nonce).
 */
export async function securityHeadersFor(
  options: FastifyHelmetOptions,
): Promise<ReadonlyArray<readonly [string, string]>> {
  const probe = Fastify({ logger: false });
  try {
    await probe.register(helmet, options);
    // What Helmet put on the response before the route ran: its headers, and only those.
    probe.get('/', (_request, reply) => reply.raw.getHeaders());
    const answer = await probe.inject({ method: 'GET', url: '/' });
    const headers = answer.json<Record<string, string | string[]>>();
    return Object.entries(headers).map(([name, value]) => [name, String(value)] as const);
  } finally {
    await probe.close();
  }
}

/** Sets Helmet's headers (for `options`) on every reply of the app, from one list built at start. */
export const securityHeadersPlugin = fp<FastifyHelmetOptions>(
  async (app: FastifyInstance, options) => {
    const headers = await securityHeadersFor(options);
    if (headers.length === 0) {
      throw new Error('Helmet set no security headers: check its options');
    }
    app.addHook('onRequest', (_request, reply, done) => {
      for (const [name, value] of headers) {
        reply.raw.setHeader(name, value);
      }
      done();
    });
  },
  { name: 'security-headers' },
);
