import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { mountDevProvider } from './dev-provider.ts';

// Moved from platform/config.test.ts with the provider (platform imports no module).
describe('configuration', () => {
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
});
