import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db/database.ts';
import type { JobsRepository } from '../jobs/repository.ts';
import type { AgreementOptions } from './agreement.ts';
import type { Connection } from './connections.ts';
import type { PolicyTable } from './policy.ts';
import type { SessionsRepository } from './sessions-repository.ts';

/** What the hub's parts (dispatch, submission, requests) share on one node. */
export interface HubContext {
  readonly db: Database;
  /** The dispatch lane for claims (DatabaseHandle.dispatchDb), or `db`. */
  readonly dispatchDb: Database;
  readonly bus: Bus;
  readonly jobs: JobsRepository;
  readonly sessions: SessionsRepository;
  readonly log: FastifyBaseLogger;
  readonly nodeId: string;
  readonly leaseMs: number;
  /** Attempts before a job without its own limit is dead-lettered (JOB_MAX_ATTEMPTS). */
  readonly maxAttempts: number | undefined;
  /** A session not seen for this long has no live socket. */
  readonly staleMs: number;
  readonly sweepMs: number;
  /** Agreement sampling of federated jobs (issue 16); none when absent. */
  readonly agreement?: AgreementOptions | undefined;
  /** This node's sockets by connection id. */
  readonly connections: Map<string, Connection>;
  /** The policy of each socket kind; the exception desk replaces the exceptions one. */
  readonly policies: PolicyTable;
}
