import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Selectable } from 'kysely';
import {
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  type ApiKeyView,
} from '@loopdesk/contracts/integration.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db/database.ts';
import type { ApiKeysTable } from '../../platform/db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import { notFound, unauthorized } from '../../platform/errors.ts';

export type ApiKeyRow = Selectable<ApiKeysTable>;

/** Who asks for a key change: an admin through the API, or an operator through the CLI. */
export interface KeyActor {
  readonly userId: string | null;
  readonly email: string | null;
  readonly via: 'api' | 'cli';
}

export interface Origin {
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly requestId: string | null;
}

/** The API key behind an `/api/v1` request. */
export interface RequestApiKey {
  readonly id: string;
  readonly name: string;
  readonly prefix: string;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A new key `ldk_<8 hex>_<43 base64url>`; only the hash of the secret is stored. */
export function generateApiKey(): { key: string; prefix: string; secretHash: string } {
  const prefix = randomBytes(4).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { key: `${API_KEY_PREFIX}${prefix}_${secret}`, prefix, secretHash: sha256(secret) };
}

export function toApiKeyView(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

const INVALID_KEY =
  'The API key is not valid: check that it was copied whole, or ask an admin for a new one.';

/**
 * How long a node trusts a key it read without hearing of it on the bus, and how many keys it
 * holds. A revocation reaches every node through the bus at once (`api-keys.revoked`); this bounds
 * it when the message is lost or the revoking process has no bus (the CLI without Redis).
 */
export const API_KEY_CACHE_TTL_MS = 1_000;
export const API_KEY_CACHE_MAX_ENTRIES = 1_000;

/**
 * The keys a node read, by prefix, so that an `/api/v1` call does not read the database (the
 * assistant sends the same key with every call). The secret is checked against the remembered
 * hash on every call; a revoked key is remembered as revoked.
 */
export interface ApiKeyCacheOptions {
  readonly bus: Bus;
  readonly ttlMs?: number;
  readonly maxEntries?: number;
}

interface CachedKey {
  readonly row: Pick<ApiKeyRow, 'id' | 'name' | 'prefix' | 'secret_hash' | 'revoked_at'>;
  readonly loadedAt: number;
}

/** API keys: created and revoked by admins (endpoint or CLI), checked on every `/api/v1` call. */
export function createApiKeysService(db: Database, cache?: ApiKeyCacheOptions) {
  const ttlMs = cache?.ttlMs ?? API_KEY_CACHE_TTL_MS;
  const maxEntries = cache?.maxEntries ?? API_KEY_CACHE_MAX_ENTRIES;
  const cached = new Map<string, CachedKey>();
  // Bumped by every revocation heard: a read that started before one does not fill the cache, so
  // a row read just before a revocation cannot outlive the revocation's message.
  let epoch = 0;
  const forget = (prefixes: readonly string[]) => {
    epoch += 1;
    for (const prefix of prefixes) {
      cached.delete(prefix);
    }
  };
  const unsubscribe = cache?.bus.subscribe('api-keys.revoked', ({ prefixes }) => forget(prefixes));

  /** The key row of a prefix: from memory while fresh, else read (and remembered). */
  async function keyRow(prefix: string): Promise<CachedKey['row'] | undefined> {
    const entry = cached.get(prefix);
    if (cache && entry && Date.now() - entry.loadedAt < ttlMs) {
      return entry.row;
    }
    const startedAt = epoch;
    const row = await db
      .selectFrom('api_keys')
      .select(['id', 'name', 'prefix', 'secret_hash', 'revoked_at'])
      .where('prefix', '=', prefix)
      .executeTakeFirst();
    cached.delete(prefix);
    // Unknown prefixes are not remembered: guessing them must not push known keys out.
    if (cache && row && startedAt === epoch) {
      if (cached.size >= maxEntries) {
        const oldest = cached.keys().next();
        if (!oldest.done) {
          cached.delete(oldest.value);
        }
      }
      cached.set(prefix, { row, loadedAt: Date.now() });
    }
    return row;
  }

  return {
    /** How many keys this node remembers (for tests and diagnostics). */
    cachedCount(): number {
      return cached.size;
    },
    /** Stops listening to the bus (the app closes). */
    close(): void {
      unsubscribe?.();
    },

    async create(
      name: string,
      actor: KeyActor,
      origin: Origin,
    ): Promise<{ row: ApiKeyRow; key: string }> {
      const { key, prefix, secretHash } = generateApiKey();
      const row = await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('api_keys')
          .values({ name, prefix, secret_hash: secretHash, created_by: actor.userId })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordAudit(
          trx,
          {
            action: 'integration.api-key.create',
            outcome: 'success',
            actorId: actor.userId,
            actorEmail: actor.email,
            resourceType: 'api-key',
            resourceId: inserted.id,
            statusCode: actor.via === 'api' ? 201 : null,
            details: { apiKey: name, prefix, via: actor.via },
          },
          origin,
        );
        return inserted;
      });
      return { row, key };
    },

    /**
     * Makes sure a known key exists (the demo assistant's, handed over by `npm start`): created
     * when its prefix is unknown, left alone otherwise. Returns false for a malformed key.
     */
    async ensureKnownKey(key: string, name: string): Promise<boolean> {
      const match = API_KEY_PATTERN.exec(key);
      const prefix = match?.[1];
      const secret = match?.[2];
      if (!prefix || !secret) {
        return false;
      }
      await db
        .insertInto('api_keys')
        .values({ name, prefix, secret_hash: sha256(secret), created_by: null })
        .onConflict((oc) => oc.column('prefix').doNothing())
        .execute();
      return true;
    },

    list(): Promise<ApiKeyRow[]> {
      return db.selectFrom('api_keys').selectAll().orderBy('created_at', 'desc').execute();
    },

    /** Revokes a key; revoking a revoked key changes nothing and answers it as it is. */
    async revoke(id: string, actor: KeyActor, origin: Origin): Promise<ApiKeyRow> {
      const row = await db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('api_keys')
          .selectAll()
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (!row) {
          throw notFound(`No API key with the id '${id}'.`);
        }
        if (row.revoked_at) {
          return row;
        }
        const revoked = await trx
          .updateTable('api_keys')
          .set({ revoked_at: new Date() })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordAudit(
          trx,
          {
            action: 'integration.api-key.revoke',
            outcome: 'success',
            actorId: actor.userId,
            actorEmail: actor.email,
            resourceType: 'api-key',
            resourceId: id,
            statusCode: actor.via === 'api' ? 200 : null,
            details: { apiKey: row.name, prefix: row.prefix, via: actor.via },
          },
          origin,
        );
        return revoked;
      });
      // Committed: this node forgets the key now, every other one as the message arrives.
      forget([row.prefix]);
      await cache?.bus.publish('api-keys.revoked', { prefixes: [row.prefix] });
      return row;
    },

    /** Checks the Authorization header of an `/api/v1` request; throws a 401 saying what is wrong. */
    async authenticate(header: string | undefined): Promise<RequestApiKey> {
      if (!header) {
        throw unauthorized(
          'This API needs an API key: send Authorization: Bearer ldk_… (an admin creates keys).',
        );
      }
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match?.[1]) {
        throw unauthorized('The Authorization header must be "Bearer ldk_…" with an API key.', {
          error: 'invalid_request',
        });
      }
      const token = match[1];
      if (!token.startsWith(API_KEY_PREFIX)) {
        throw unauthorized(
          'This is not an API key: /api/v1 takes an API key (ldk_…) created by an admin, not a staff access token.',
          { error: 'invalid_token' },
        );
      }
      const parts = API_KEY_PATTERN.exec(token);
      if (!parts?.[1] || !parts[2]) {
        throw unauthorized(INVALID_KEY, { error: 'invalid_token' });
      }
      const row = await keyRow(parts[1]);
      const presented = Buffer.from(sha256(parts[2]), 'hex');
      if (!row || !timingSafeEqual(presented, Buffer.from(row.secret_hash, 'hex'))) {
        throw unauthorized(INVALID_KEY, { error: 'invalid_token' });
      }
      if (row.revoked_at) {
        throw unauthorized(
          `This API key was revoked on ${row.revoked_at.toISOString()}: ask an admin for a new one.`,
          { error: 'invalid_token' },
        );
      }
      return { id: row.id, name: row.name, prefix: row.prefix };
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
