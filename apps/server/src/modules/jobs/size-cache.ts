/** How long a queue's count is reused: every open portal polls three sizes every 5 s. */
const SIZE_CACHE_MS = 1000;

/**
 * One count per queue per second per node, however many portals poll: wraps a counting query.
 * A failed count is forgotten at once, so the next poll asks again.
 */
export function createSizeCache<Queue extends string>(
  count: (queue: Queue) => Promise<number>,
): (queue: Queue) => Promise<number> {
  const cache = new Map<Queue, { at: number; size: Promise<number> }>();
  return (queue) => {
    const hit = cache.get(queue);
    if (hit && Date.now() - hit.at < SIZE_CACHE_MS) {
      return hit.size;
    }
    const fresh = count(queue);
    cache.set(queue, { at: Date.now(), size: fresh });
    fresh.catch(() => cache.delete(queue));
    return fresh;
  };
}
