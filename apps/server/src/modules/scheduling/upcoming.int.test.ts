import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';

describe('upcoming appointments (GET /internal/experiment/appointments/_summary?upcoming=true)', () => {
  let t: TestApp;
  let medical: string;

  beforeAll(async () => {
    t = await startTestApp();
    medical = (await tokenForRoles(t, 'meera@example.test', ['medical'])).token;
    await t.database.db
      .insertInto('physicians')
      .values({ id: 'dr-hale', first_name: 'Iris', last_name: 'Hale' })
      .execute();
    const hour = 3_600_000;
    const at = (offsetHours: number, note: string) => ({
      type: 'GENERAL' as const,
      from_date_time: '2026-01-01T09:00',
      duration: 15,
      timezone: 'America/Los_Angeles',
      starts_at: new Date(Date.now() + offsetHours * hour),
      consumer_email: `${note}@example.test`,
      staff_id: 'dr-hale',
      staff_first_name: 'Iris',
      staff_last_name: 'Hale',
      consumer_note: note,
      appointment_note: note,
      created_by_email: 'meera@example.test',
    });
    // Booked in this order: later, past, sooner.
    for (const row of [at(48, 'later'), at(-2, 'past'), at(3, 'sooner')]) {
      await t.database.db.insertInto('appointments').values(row).execute();
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const summary = (query: string) =>
    t.app.inject({
      method: 'GET',
      url: `/internal/experiment/appointments/_summary${query}`,
      headers: { authorization: `Bearer ${medical}` },
    });

  it('lists only those not started, soonest first; without it, every one newest first', async () => {
    const upcoming = await summary('?upcoming=true');
    expect(upcoming.statusCode).toBe(200);
    expect(upcoming.json<{ items: { appointmentNote: string }[]; total: number }>()).toMatchObject({
      total: 2,
      items: [{ appointmentNote: 'sooner' }, { appointmentNote: 'later' }],
    });
    const all = await summary('');
    expect(all.json<{ total: number }>().total).toBe(3);
    // Appointments name patients: each read is audited, with the appointments it showed.
    const reads = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'appointments.read')
      .orderBy('id')
      .execute();
    expect(reads.map((r) => [r.actor_email, r.outcome, r.details])).toEqual([
      [
        'meera@example.test',
        'success',
        expect.objectContaining({ upcoming: true, returned: 2, appointmentIds: expect.any(Array) }),
      ],
      ['meera@example.test', 'success', expect.objectContaining({ upcoming: false, returned: 3 })],
    ]);
    const bad = await summary('?upcoming=soon');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ details: unknown[] }>().details).toEqual([
      { path: 'querystring.upcoming', message: "must be 'true' or 'false'" },
    ]);
    // A refused query read nothing and adds no read row.
    expect(
      await t.database.db
        .selectFrom('audit_events')
        .select('id')
        .where('action', '=', 'appointments.read')
        .execute(),
    ).toHaveLength(2);
  });
});
