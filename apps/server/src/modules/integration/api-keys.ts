import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Selectable } from 'kysely';
import {
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  type ApiKeyView,
} from '@loopdesk/contracts/integration.ts';
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

/** API keys: created and revoked by admins (endpoint or CLI), checked on every `/api/v1` call. */
export function createApiKeysService(db: Database) {
  return {
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
      return db.transaction().execute(async (trx) => {
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
      const row = await db
        .selectFrom('api_keys')
        .selectAll()
        .where('prefix', '=', parts[1])
        .executeTakeFirst();
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
