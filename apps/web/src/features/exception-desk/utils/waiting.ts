import { useEffect, useState } from 'react';

/** The rail's waiting times are worked out again this often. */
export const WAITING_TICK_MS = 30_000;

/** How long a patient has waited, in words: 'Waiting 12 min', 'Waiting 2 h 05 min'. */
export function waitingText(since: string | undefined, now: number): string {
  const at = since ? Date.parse(since) : Number.NaN;
  if (Number.isNaN(at)) {
    return 'Waiting';
  }
  const minutes = Math.max(0, Math.floor((now - at) / 60_000));
  if (minutes < 1) {
    return 'Waiting less than a minute';
  }
  if (minutes < 60) {
    return `Waiting ${minutes} min`;
  }
  const hours = Math.floor(minutes / 60);
  return `Waiting ${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** The current time, renewed every `tickMs` while mounted. */
export function useNow(tickMs = WAITING_TICK_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);
  return now;
}
