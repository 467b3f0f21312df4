import { AwsClient } from 'aws4fetch';
import { sql } from 'kysely';
import type { Env } from '../../platform/config.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../../platform/db/database.ts';
import type { DB } from '../../platform/db/schema.ts';

type Executor = Database | Transaction<DB>;

/** A stored file: its bytes and type. */
export interface StoredFile {
  readonly bytes: Uint8Array;
  readonly contentType: string;
}

/**
 * Where originals and prepared texts are kept (docs/data-preparation.md "Storage"): by name, so
 * that every node of the cluster reads what any node wrote.
 */
export interface DocumentStore {
  readonly kind: 'postgres' | 's3';
  /** Stores a file; with PostgreSQL inside `trx` when given (the file commits with its row). */
  put(name: string, bytes: Uint8Array, contentType: string, trx?: Executor): Promise<void>;
  get(name: string): Promise<StoredFile | null>;
  /** An address a browser may load directly for a few minutes, or null (then the portal fetches). */
  directUrl(name: string): Promise<string | null>;
}

/** The default: a `bytea` row per file in the one database every node already uses. */
export function createPostgresStore(db: Database): DocumentStore {
  return {
    kind: 'postgres',
    async put(name, bytes, contentType, trx = db) {
      await sql`
        insert into document_files (name, content_type, byte_size, bytes)
        values (${name}, ${contentType}, ${bytes.byteLength}, ${Buffer.from(bytes)})
        on conflict (name) do update
        set content_type = excluded.content_type, byte_size = excluded.byte_size,
            bytes = excluded.bytes, updated_at = now()
      `.execute(trx);
    },
    async get(name) {
      const { rows } = await sql<{ bytes: Uint8Array; content_type: string }>`
        select bytes, content_type from document_files where name = ${name}
      `.execute(db);
      const row = rows[0];
      return row ? { bytes: new Uint8Array(row.bytes), contentType: row.content_type } : null;
    },
    directUrl: () => Promise.resolve(null),
  };
}

/** How long a signed address of the S3-compatible store stays valid. */
const SIGNED_URL_SECONDS = 300;

/**
 * An S3-compatible object store (AWS S3, MinIO, Ceph, R2…) by configuration: path-style
 * addresses `{endpoint}/{bucket}/{name}`, signed with AWS Signature V4.
 */
export function createS3Store(options: {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  fetch?: typeof fetch;
}): DocumentStore {
  const client = new AwsClient({
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    region: options.region,
    service: 's3',
  });
  const send = options.fetch ?? fetch;
  const base = `${options.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(options.bucket)}`;
  const urlOf = (name: string) => `${base}/${name.split('/').map(encodeURIComponent).join('/')}`;
  const failed = async (what: string, response: Response) =>
    new Error(
      `The document store answered ${response.status} to ${what}: ${(await response.text()).slice(0, 200)}`,
    );
  return {
    kind: 's3',
    async put(name, bytes, contentType) {
      const request = await client.sign(urlOf(name), {
        method: 'PUT',
        body: bytes.slice(),
        headers: { 'content-type': contentType },
      });
      const response = await send(request);
      if (!response.ok) {
        throw await failed(`storing ${name}`, response);
      }
    },
    async get(name) {
      const response = await send(await client.sign(urlOf(name), { method: 'GET' }));
      if (response.status === 404) {
        return null;
      }
      if (!response.ok) {
        throw await failed(`reading ${name}`, response);
      }
      return {
        bytes: new Uint8Array(await response.arrayBuffer()),
        contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      };
    },
    async directUrl(name) {
      const url = new URL(urlOf(name));
      url.searchParams.set('X-Amz-Expires', String(SIGNED_URL_SECONDS));
      const signed = await client.sign(url.href, { method: 'GET', aws: { signQuery: true } });
      return signed.url;
    },
  };
}

/** The store the configuration names (DOCUMENT_STORE, DOCUMENT_S3_*). */
export function documentStoreFor(env: Env, db: Database): DocumentStore {
  if (env.DOCUMENT_STORE === 's3') {
    return createS3Store({
      endpoint: env.DOCUMENT_S3_ENDPOINT ?? '',
      bucket: env.DOCUMENT_S3_BUCKET ?? '',
      region: env.DOCUMENT_S3_REGION,
      accessKeyId: env.DOCUMENT_S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: env.DOCUMENT_S3_SECRET_ACCESS_KEY ?? '',
    });
  }
  return createPostgresStore(db);
}
