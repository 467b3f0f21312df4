import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { AnalyticsFigures, Percentiles } from '@loopdesk/contracts/analytics.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { Histogram } from './query.ts';
import { insertJob, T0 } from './test-history.ts';

/**
 * Long ranges (two whole UTC days or more) read the day rollups for their whole days, the hour
 * rollups for the whole hours of their partial edge days and the jobs of their partial edge hours
 * (migration 027, durations.ts). Over a generated four-day history, ranges with edges inside days
 * and inside hours must give the counts and active hours computed here by hand, the same as the
 * exact path (a tenant filter: percentile_cont over the jobs), and percentiles within a 2% bucket's
 * half-width (1% of 1 + the value) of the exact ones; then again after an incremental refresh.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const seconds = (time: number) => (time - T0.getTime()) / 1000;

interface Answer {
  readonly user: string;
  readonly at: number;
  readonly exception: boolean;
  readonly type: string;
  readonly created: number;
}

describe('analytics long ranges with partial edge days and hours (issue 16, migration 027)', () => {
  let t: TestApp;
  let viewToken: string;
  const techs: { userId: string; email: string }[] = [];
  const answers: Answer[] = [];
  /** The UTC day four days before now: the history's first day. */
  const day0 = Math.floor(Date.now() / DAY) * DAY - 4 * DAY;
  let jobCount = 0;

  async function addJob(created: number, wait: number, handle: number | null, k: number) {
    const user = techs[k % techs.length] as { userId: string };
    const type = k % 2 === 0 ? 'hpi.summary' : 'message.annotation';
    const id = `e0000000-0000-4000-8000-${String(jobCount++).padStart(12, '0')}`;
    const base = { id, type, queue: 'federated', tenant: 'acme', created: seconds(created) };
    if (handle === null) {
      await insertJob(t.database.db, { ...base, state: 'queued' });
      return;
    }
    const answered = created + (wait + handle) * 1000;
    const exception = k % 7 === 3;
    await insertJob(t.database.db, {
      ...base,
      state: 'completed',
      deliveries: [{ at: seconds(created + wait * 1000), user: user.userId }],
      completed: {
        at: seconds(answered),
        user: user.userId,
        type: exception ? `${type}.exception` : type,
      },
    });
    answers.push({ user: user.userId, at: answered, exception, type, created });
  }

  async function figures(from: number, to: number, tenant?: string) {
    const query = new URLSearchParams({
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      ...(tenant ? { tenant } : {}),
    });
    const response = await t.app.inject({
      url: `/internal/analytics/embed/figures?${query.toString()}`,
      headers: { 'x-analytics-view': viewToken },
    });
    expect(response.statusCode).toBe(200);
    return response.json<AnalyticsFigures>();
  }

  /** Jobs, active hours and exceptions per technician, by hand from the history. */
  function byHand(from: number, to: number) {
    return techs
      .map(({ userId, email }) => {
        const mine = answers.filter((a) => a.user === userId && a.at >= from && a.at < to);
        return {
          name: email,
          jobs: mine.length,
          activeHours: new Set(mine.map((a) => Math.floor(a.at / HOUR))).size,
          exceptions: mine.filter((a) => a.exception).length,
        };
      })
      .filter((p) => p.jobs > 0)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  function near(got: Percentiles | undefined, want: Percentiles | undefined, label: string) {
    expect(got?.count, `${label} count`).toBe(want?.count);
    for (const p of ['p50', 'p90', 'p99'] as const) {
      const [g, w] = [got?.[p] ?? 0, want?.[p] ?? 0];
      expect(Math.abs(g - w), `${label} ${p}: ${g} against ${w}`).toBeLessThanOrEqual(
        0.01 * (1 + w),
      );
    }
  }

  /** The long path (no filter) against the hand counts and the exact path (tenant filter). */
  async function check(from: number, to: number) {
    const long = await figures(from, to);
    const exact = await figures(from, to, 'acme');
    const label = `${new Date(from).toISOString()} → ${new Date(to).toISOString()}`;
    const counts = (long.people ?? []).map(({ name, jobs, activeHours, exceptions }) => ({
      name,
      jobs,
      activeHours,
      exceptions,
    }));
    expect(counts, label).toEqual(byHand(from, to));
    expect(counts.length, label).toBeGreaterThan(0);
    expect(
      (long.people ?? []).map(({ handle: _h, ...rest }) => rest),
      label,
    ).toEqual((exact.people ?? []).map(({ handle: _h, ...rest }) => rest));
    for (const [i, person] of (long.people ?? []).entries()) {
      near(person.handle, exact.people?.[i]?.handle, `${label} ${person.name} handle`);
    }
    expect(long.times.map((x) => x.type)).toEqual(exact.times.map((x) => x.type));
    for (const [i, times] of long.times.entries()) {
      const created = answers.filter(
        (a) => a.type === times.type && a.created >= from && a.created < to,
      ).length;
      expect(times.handle.count, `${label} ${times.type} answered`).toBe(created);
      for (const metric of ['wait', 'handle', 'total'] as const) {
        near(times[metric], exact.times[i]?.[metric], `${label} ${times.type} ${metric}`);
      }
    }
  }

  beforeAll(async () => {
    t = await startTestApp();
    for (const name of ['ann', 'bob', 'cy']) {
      const email = `${name}@example.test`;
      techs.push({ email, userId: (await tokenForRoles(t, email, ['annotator'])).userId });
    }
    const lead = await tokenForRoles(t, 'lead@example.test', ['medical', 'admin']);
    // A job every 41 minutes from the first day on; every 9th left waiting, every 7th (from the
    // 4th) an exception; waits of 10 s to 7 min and handle times of 10 s to 20 min, so answers
    // cross hour and day boundaries after their arrival.
    for (let k = 0; day0 + k * 41 * 60_000 < Date.now() - 40 * 60_000; k++) {
      const wait = 10 + ((k * 37) % 400);
      await addJob(day0 + k * 41 * 60_000, wait, k % 9 === 5 ? null : 10 + ((k * 263) % 1190), k);
    }
    await sql`delete from analytics_refresh`.execute(t.database.db);
    await t.app.analytics.rollups.refresh();
    const address = await t.app.inject({
      url: '/internal/analytics/dashboard',
      headers: { authorization: `Bearer ${lead.token}` },
    });
    const token = new URL(address.json<{ url: string }>().url, 'http://x').searchParams.get(
      'token',
    );
    const opened = await t.app.inject({
      url: `/internal/analytics/embed/_open?token=${token ?? ''}`,
    });
    viewToken = opened.json<{ viewToken: string }>().viewToken;
  });
  afterAll(async () => {
    await t.close();
  });

  it('reads the whole days and hours from the rollups, each answer counted once', async () => {
    const db = t.database.db;
    const jobsIn = (rows: { histogram: Uint8Array }[]) =>
      rows.reduce((sum, row) => sum + new Histogram().add(row.histogram).percentiles().n, 0);
    const daily = await sql<{ jobs: number; hours: number; histogram: Uint8Array }>`
      select jobs, hours, handle as histogram from analytics_people_daily`.execute(db);
    const hourly = await sql<{ jobs: number; histogram: Uint8Array }>`
      select jobs, handle as histogram from analytics_people`.execute(db);
    const durations = await sql<{ histogram: Uint8Array }>`
      select histogram from analytics_durations_hourly where metric = 'handle'`.execute(db);
    const hours = new Set(answers.map((a) => `${a.user} ${Math.floor(a.at / HOUR)}`)).size;
    const sum = (rows: { jobs: number }[]) => rows.reduce((n, row) => n + row.jobs, 0);
    expect(sum(daily.rows)).toBe(answers.length);
    expect(daily.rows.reduce((n, row) => n + row.hours, 0)).toBe(hours);
    expect(jobsIn(daily.rows)).toBe(answers.length);
    expect([hourly.rows.length, sum(hourly.rows), jobsIn(hourly.rows)]).toEqual([
      hours,
      answers.length,
      answers.length,
    ]);
    expect(jobsIn(durations.rows)).toBe(answers.length);
  });

  it('gives partial edge days and hours the counts of the exact path', async () => {
    // Edges inside hours (05:17 and 19:42), whole edge hours around two whole days.
    await check(day0 + 5 * HOUR + 17 * 60_000, day0 + 3 * DAY + 19 * HOUR + 42 * 60_000);
    // Edges on hours, inside days.
    await check(day0 + 7 * HOUR, day0 + 3 * DAY + 13 * HOUR);
    // Two whole days and a minute either side: partial hours only, no whole edge hour.
    await check(day0 + DAY - 60_000, day0 + 3 * DAY + 60_000);
    // From a day's start to now: a partial day at the end only.
    await check(day0, Date.now());
  });

  it('keeps them exact after an incremental refresh', async () => {
    // Answered a minute ago by bob: the current hour's and day's rollups are recomputed.
    const now = Date.now();
    await addJob(now - 4 * 60_000, 60, 120, 1);
    await addJob(now - 3 * 60_000, 30, 90, 3);
    // Their rows carry the times of a history (minutes ago); rows written live carry the time of
    // their writing. The last run covered up to its own start, so it is put back before these.
    await sql`update analytics_refresh set covered_until = ${new Date(now - 5 * 60_000)}
      where id = 1`.execute(t.database.db);
    const refreshed = await t.app.analytics.rollups.refresh();
    expect(refreshed.jobs).toBeGreaterThanOrEqual(2);
    // To the end of the current hour: that hour is whole, read from the hour rollups.
    const end = Math.ceil((now + 1) / HOUR) * HOUR;
    await check(day0 + 2 * HOUR + 30 * 60_000, end);
    await check(day0 + 5 * HOUR + 17 * 60_000, now);
    // To the end of today: today is whole, read from the day rollups.
    await check(day0 + 5 * HOUR + 17 * 60_000, day0 + 5 * DAY);
  });
});
