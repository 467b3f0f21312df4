import {
  type AsyncTask,
  type AsyncTaskState,
  type AsyncTaskType,
  type ChangeLogEntry,
} from '@loopdesk/contracts/async-jobs.ts';
import type { TaskRow } from './repository.ts';

const iso = (value: Date | string) => new Date(value).toISOString();

/** The row as spec 3 §3 Task; the lease shows only while it runs. */
export function toTask(row: TaskRow, now = new Date()): AsyncTask {
  const leased =
    row.lock_holder !== null &&
    row.lock_expires_at !== null &&
    new Date(row.lock_expires_at) > now &&
    row.completed_at === null;
  const type = row.job_type.replace(/^hitl\.jobs\.async\./, '') as AsyncTaskType;
  return {
    id: row.id,
    type,
    jobType: row.job_type,
    jobClass: row.job_class,
    state: row.state as AsyncTaskState,
    version: row.version,
    changeLog: row.change_log as ChangeLogEntry[],
    metadata: row.metadata,
    createdOn: iso(row.created_on),
    lock: { pipeline: row.pipeline_id, step: row.step },
    lease:
      leased && row.lock_holder && row.lock_expires_at
        ? { holder: row.lock_holder, expiresAt: iso(row.lock_expires_at) }
        : null,
    data: row.data,
    annotations: {
      entities: Array.isArray(row.annotations.entities) ? row.annotations.entities : [],
    },
    condition: row.condition,
    locations: row.locations,
    completedOn: row.completed_at ? iso(row.completed_at) : null,
    discardedNote: row.discarded_note,
    draft: row.draft ?? null,
  };
}
