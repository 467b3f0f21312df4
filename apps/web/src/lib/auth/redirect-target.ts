import { REDIRECT_TARGET_TTL_MS, redirectTargetFor } from '@loopdesk/contracts/portal-routes.ts';

const STORAGE_KEY = 'loopdesk:redirect-target';

interface SavedTarget {
  path: string;
  savedAt: number;
}

function isSavedTarget(value: unknown): value is SavedTarget {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as SavedTarget).path === 'string' &&
    typeof (value as SavedTarget).savedAt === 'number'
  );
}

/**
 * Remembers where to go after sign-in: the path itself under /jobs or /conversations (with its
 * query string), otherwise / (spec 1 §2).
 */
export function saveRedirectTarget(pathname: string, search = ''): void {
  const target = redirectTargetFor(pathname);
  const path = target === pathname ? `${pathname}${search}` : target;
  try {
    localStorage.setItem(
      STORAGE_KEY,
      JSON.stringify({ path, savedAt: Date.now() } satisfies SavedTarget),
    );
  } catch {
    // Storage may be unavailable (private mode); the user then lands on /.
  }
}

/** The saved post-login target if it is younger than REDIRECT_TARGET_TTL_MS, otherwise /. */
export function readRedirectTarget(): string {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    const saved: unknown = raw ? JSON.parse(raw) : null;
    if (isSavedTarget(saved) && Date.now() - saved.savedAt < REDIRECT_TARGET_TTL_MS) {
      // Re-check: storage is writable by anything on the origin.
      return redirectTargetFor(saved.path.split('?')[0] ?? '/') === '/' ? '/' : saved.path;
    }
  } catch {
    // Unreadable entries count as none.
  }
  return '/';
}

/** Forgets the saved target once it has been used. */
export function clearRedirectTarget(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing to clear.
  }
}
