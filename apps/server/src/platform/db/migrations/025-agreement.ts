import { sql, type Kysely } from 'kysely';

/**
 * Agreement sampling (issue 16): a share of federated jobs, once answered, is sent again, unseen,
 * to a second technician. The second delivery is a job of its own (`agreement_of` the sampled
 * job, never given to `agreement_exclude`, the first technician), whose answer is kept for
 * agreement only: no outbox event, never the assistant's. `analytics_agreement` holds, per
 * answered sample, the counts and category pairs that span-level F1 and Cohen's kappa are computed
 * from: categories and counts only, never message text or offsets.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table jobs add column agreement_of uuid;
    alter table jobs add column agreement_exclude uuid;
    create index jobs_agreement_of_idx on jobs (agreement_of) where agreement_of is not null;
    -- The claim of samples: the queued ones of a queue, oldest first.
    create index jobs_agreement_queued_idx on jobs (queue, queued_at, seq)
      where state = 'queued' and agreement_of is not null;

    create table analytics_agreement (
      sample_job_id uuid primary key,
      job_id uuid not null,
      queue text not null,
      type text not null,
      tenant text not null,
      first_user uuid,
      second_user uuid,
      answered_at timestamptz not null,
      -- Spans (entities) of each answer and those of both (same start, end and category).
      first_spans integer not null,
      second_spans integer not null,
      matched_spans integer not null,
      -- [[first category, second category], …] per span boundary either marked ('' for none).
      category_pairs jsonb not null,
      -- The two answers differ in kind (submission type or action).
      outcome_differs boolean not null
    );
    create index analytics_agreement_answered_idx on analytics_agreement (answered_at);

    -- Durations per arrival day and job type as 2% histograms (analytics rollups): the long
    -- ranges' percentiles read these instead of every job of the range.
    create table analytics_durations (
      day timestamptz not null,
      type text not null,
      metric text not null check (metric in ('wait', 'handle', 'total')),
      bucket integer not null,
      jobs integer not null,
      primary key (day, type, metric, bucket)
    );

    -- Per technician: answers and exceptions per hour, handle-time histograms per day.
    create table analytics_people (
      hour timestamptz not null,
      user_id uuid not null,
      jobs integer not null,
      exceptions integer not null,
      primary key (hour, user_id)
    );
    create table analytics_people_handle (
      day timestamptz not null,
      user_id uuid not null,
      bucket integer not null,
      jobs integer not null,
      primary key (day, user_id, bucket)
    );

    -- Answers read by time alone (the background refresh of the rollups).
    create index jobs_updated_idx on jobs (updated_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table analytics_agreement, analytics_durations, analytics_people, analytics_people_handle;
    drop index jobs_updated_idx;
    alter table jobs drop column agreement_exclude;
    alter table jobs drop column agreement_of;
  `.execute(db);
}
