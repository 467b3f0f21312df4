import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService } from './tokens.ts';

const claims = { sub: 'user-1', sid: 'session-1', email: 'ann@tokens.test', roles: ['annotator'] };

describe('access tokens: a verified token is remembered until it expires', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a remembered token answers the same claims, without being verified again', async () => {
    const tokens = createTokenService('secret', 60);
    const token = await tokens.sign({ ...claims, roles: ['annotator'] });
    const first = await tokens.verify(token);
    expect(first).toEqual({ claims });
    expect(tokens.verifiedCount()).toBe(1);
    const second = await tokens.verify(token);
    expect(second).toEqual({ claims });
    expect(tokens.verifiedCount()).toBe(1);
    // Shared between requests: nobody can change what the next request is told.
    const shared = 'claims' in second ? second.claims : null;
    expect(() => (shared?.roles as string[]).push('admin')).toThrow(TypeError);
  });

  it('an expired token is refused at once, even when remembered', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T10:00:00Z'));
    const tokens = createTokenService('secret', 60);
    const token = await tokens.sign({ ...claims, roles: ['annotator'] });
    expect(await tokens.verify(token)).toEqual({ claims });
    vi.setSystemTime(new Date('2026-01-01T10:00:59Z'));
    expect(await tokens.verify(token)).toEqual({ claims });
    // JOSE's rule: expired from the second of `exp` on.
    vi.setSystemTime(new Date('2026-01-01T10:01:00Z'));
    expect(await tokens.verify(token)).toEqual({
      reason: 'The access token has expired: refresh it and try again.',
    });
    expect(tokens.verifiedCount()).toBe(0);
  });

  it('another payload under a remembered signature is refused (the whole token is the key)', async () => {
    const tokens = createTokenService('secret', 60);
    const token = await tokens.sign({ ...claims, roles: ['annotator'] });
    await tokens.verify(token);
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...claims, roles: ['admin'], exp: Math.floor(Date.now() / 1000) + 60 }),
    ).toString('base64url');
    expect(await tokens.verify(`${header}.${forged}.${signature}`)).toEqual({
      reason: 'The access token signature is invalid.',
    });
    // A token of another secret is not one of ours, remembered or not.
    const other = await createTokenService('other secret', 60).sign({
      ...claims,
      roles: ['annotator'],
    });
    expect(await tokens.verify(other)).toEqual({
      reason: 'The access token signature is invalid.',
    });
    expect(tokens.verifiedCount()).toBe(1);
  });

  it('remembers at most its bound, the oldest going first', async () => {
    const tokens = createTokenService('secret', 60, 2);
    const signed = await Promise.all(
      ['s1', 's2', 's3'].map((sid) => tokens.sign({ ...claims, sid, roles: ['annotator'] })),
    );
    for (const token of signed) {
      await tokens.verify(token);
    }
    expect(tokens.verifiedCount()).toBe(2);
    // The oldest, forgotten, is verified again and still accepted.
    expect(await tokens.verify(signed[0] ?? '')).toEqual({ claims: { ...claims, sid: 's1' } });
    expect(tokens.verifiedCount()).toBe(2);
  });
});
