import { REDIRECT_TARGET_TTL_MS } from '@loopdesk/contracts/portal-routes.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearRedirectTarget, readRedirectTarget, saveRedirectTarget } from './redirect-target.ts';

describe('post-login redirect target', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-03-01T09:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps a /jobs path until it is five minutes old', () => {
    saveRedirectTarget('/jobs/federated');
    vi.advanceTimersByTime(REDIRECT_TARGET_TTL_MS - 1);
    expect(readRedirectTarget()).toBe('/jobs/federated');
    vi.advanceTimersByTime(1);
    expect(readRedirectTarget()).toBe('/');
  });

  it('keeps a /conversations path with its query string', () => {
    saveRedirectTarget('/conversations', '?id=42');
    expect(readRedirectTarget()).toBe('/conversations?id=42');
  });

  it('remembers / for any other path', () => {
    saveRedirectTarget('/admin/user-management');
    expect(readRedirectTarget()).toBe('/');
    saveRedirectTarget('/jobsearch');
    expect(readRedirectTarget()).toBe('/');
  });

  it('is / when nothing was saved, when it was cleared, or when storage holds junk', () => {
    expect(readRedirectTarget()).toBe('/');
    saveRedirectTarget('/jobs/exception');
    clearRedirectTarget();
    expect(readRedirectTarget()).toBe('/');
    localStorage.setItem('loopdesk:redirect-target', '{not json');
    expect(readRedirectTarget()).toBe('/');
    localStorage.setItem(
      'loopdesk:redirect-target',
      JSON.stringify({ path: 'https://evil.example.com', savedAt: Date.now() }),
    );
    expect(readRedirectTarget()).toBe('/');
  });
});
