import { describe, expect, it, vi } from 'vitest';
import { createRedisBus } from './redis-bus.ts';

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('the Redis bus between nodes', () => {
  const log = () => ({ error: vi.fn(), warn: vi.fn() });

  it('carries a message from one node to every subscriber on another, until unsubscribed', async () => {
    // Each test run gets its own channel prefix, so parallel runs on one Redis stay apart.
    const prefix = `loopdesk-test-${Date.now()}-${Math.random()}:`;
    const nodeA = await createRedisBus(redisUrl ?? '', log(), prefix);
    const nodeB = await createRedisBus(redisUrl ?? '', log(), prefix);
    try {
      const received: { queues: string[] }[] = [];
      const off = nodeB.subscribe('jobs.available', (message) => received.push(message));
      // The subscription is in place once Redis has confirmed it.
      await expect
        .poll(async () => {
          await nodeA.publish('jobs.available', { queues: ['probe'] });
          return received.length;
        })
        .toBeGreaterThan(0);
      // A probe published by a later round of the poll may still arrive: only the rest counts.
      const sent = () => received.filter((message) => message.queues[0] !== 'probe');
      await nodeA.publish('jobs.available', { queues: ['federated'] });
      await expect.poll(sent).toEqual([{ queues: ['federated'] }]);
      off();
      await nodeA.publish('jobs.available', { queues: ['exceptions'] });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(sent()).toEqual([{ queues: ['federated'] }]);
    } finally {
      await nodeA.close();
      await nodeB.close();
    }
  });

  it('a publish that Redis cannot take is logged, not thrown: the sweep catches up', async () => {
    const logger = log();
    const bus = await createRedisBus(redisUrl ?? '', logger, 'loopdesk-test-closed:');
    await bus.close();
    await expect(bus.publish('jobs.available', { queues: ['federated'] })).resolves.toBeUndefined();
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ channel: 'jobs.available' }),
      'redis publish failed; other nodes catch up at their sweep',
    );
  });
});
