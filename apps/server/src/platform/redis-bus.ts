import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus, BusChannel, BusMessages } from './bus.ts';

/** Cross-node events over Redis pub/sub. Channel names are prefixed so one Redis can serve many. */
export async function createRedisBus(
  url: string,
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>,
  prefix = 'loopdesk:',
): Promise<Bus> {
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const subscriber = new Redis(url, { lazyConnect: true });
  publisher.on('error', (error) => log.warn({ err: error }, 'redis publisher error'));
  subscriber.on('error', (error) => log.warn({ err: error }, 'redis subscriber error'));
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const handlers = new Map<string, Set<(message: never) => void>>();

  subscriber.on('message', (channel: string, raw: string) => {
    const set = handlers.get(channel);
    if (!set) {
      return;
    }
    let message: never;
    try {
      message = JSON.parse(raw) as never;
    } catch (error) {
      log.error({ err: error, channel }, 'unreadable bus message');
      return;
    }
    for (const handler of set) {
      handler(message);
    }
  });

  return {
    async publish<C extends BusChannel>(channel: C, message: BusMessages[C]): Promise<void> {
      try {
        await publisher.publish(prefix + channel, JSON.stringify(message));
      } catch (error) {
        // Redis only hurries other nodes along: the change is committed in the database already,
        // and each node's periodic sweep picks up what a lost message would have announced.
        log.warn(
          { err: error, channel },
          'redis publish failed; other nodes catch up at their sweep',
        );
      }
    },
    subscribe<C extends BusChannel>(
      channel: C,
      handler: (message: BusMessages[C]) => void,
    ): () => void {
      const key = prefix + channel;
      let set = handlers.get(key);
      if (!set) {
        set = new Set();
        handlers.set(key, set);
        subscriber
          .subscribe(key)
          .catch((error: unknown) => log.error({ err: error, channel }, 'redis subscribe failed'));
      }
      const entry = handler as (message: never) => void;
      set.add(entry);
      return () => {
        set.delete(entry);
      };
    },
    async close(): Promise<void> {
      handlers.clear();
      await Promise.allSettled([subscriber.quit(), publisher.quit()]);
    },
  };
}
