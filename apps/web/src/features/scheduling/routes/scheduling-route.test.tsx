import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Appointment } from '@loopdesk/contracts/scheduling.ts';
import { errorAnswer, json, makeUser, type FakeRequest } from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';

vi.setConfig({ testTimeout: 90_000 });

const MEDICAL = makeUser(['medical'], { id: 'user-meera', displayName: 'Meera' });
const FUTURE = `${new Date().getFullYear() + 1}-07-01T09:30`;

const booked = (body: Record<string, unknown>): Appointment =>
  ({
    type: 'GENERAL',
    duration: 15,
    timezone: 'America/Los_Angeles',
    conversationId: null,
    consumerEmail: null,
    ...body,
    id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    startsAt: '2027-07-01T16:30:00.000Z',
    consumerId: null,
    status: 'SCHEDULED',
    createdOn: '2026-11-26T09:00:00.000Z',
    createdBy: 'meera@example.com',
  }) as Appointment;

describe('scheduling', () => {
  it('schedules an appointment with the shared form and lists it among the upcoming ones', async () => {
    const appointments: Appointment[] = [];
    const summaries: string[] = [];
    const { events } = renderApp({
      path: '/scheduling',
      user: MEDICAL,
      routes: {
        'GET /internal/physicians': () =>
          json(200, { items: [{ id: 'dr-hale', firstName: 'Iris', lastName: 'Hale' }] }),
        'GET /internal/experiment/appointments/_summary': (request: FakeRequest) => {
          summaries.push(request.query.toString());
          return json(200, { items: appointments, total: appointments.length });
        },
        'POST /internal/appointments/_schedule': ({ body }) => {
          const appointment = booked(body as Record<string, unknown>);
          appointments.push(appointment);
          return json(201, appointment);
        },
      },
    });
    const table = await screen.findByRole(
      'table',
      { name: 'Upcoming appointments' },
      { timeout: 40_000 },
    );
    expect(within(table).getByText('No appointments coming up.')).toBeInTheDocument();
    expect(summaries[0]).toBe('upcoming=true&s=50');

    // Nothing filled in: the spec's checks (3 §5) say what is missing.
    await events.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(screen.getAllByText('This field is required.')).toHaveLength(2);
    expect(screen.getByText('Give the consumer email or the conversation id.')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText(/^Date and time/), { target: { value: FUTURE } });
    await events.click(screen.getByRole('combobox', { name: /^Physician/ }));
    await events.click(await screen.findByRole('option', { name: 'Iris Hale' }));
    fireEvent.change(screen.getByLabelText(/Appointment note/), {
      target: { value: 'Follow-up of the rash.' },
    });
    fireEvent.change(screen.getByLabelText(/Consumer note/), {
      target: { value: 'Dr Hale will call you.' },
    });
    fireEvent.change(screen.getByLabelText('Consumer email'), {
      target: { value: 'noah@example.com' },
    });
    await events.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(
      await screen.findByText('Success the appointment has been scheduled.'),
    ).toBeInTheDocument();
    expect(appointments[0]).toMatchObject({
      fromDateTime: FUTURE,
      staffId: 'dr-hale',
      consumerEmail: 'noah@example.com',
    });
    // The list reads again and shows it; the form is empty for the next one.
    const row = await within(table).findByText('noah@example.com');
    expect(row.closest('tr')).toHaveTextContent(
      `${FUTURE.replace('T', ' ')} (America/Los_Angeles)General15Iris Halenoah@example.comFollow-up of the rash.`,
    );
    expect(screen.getByLabelText(/Appointment note/)).toHaveValue('');
  });

  it("a failed save says the spec's message and the error", async () => {
    const { events } = renderApp({
      path: '/scheduling',
      user: MEDICAL,
      routes: {
        'GET /internal/physicians': () =>
          json(200, { items: [{ id: 'dr-hale', firstName: 'Iris', lastName: 'Hale' }] }),
        'GET /internal/experiment/appointments/_summary': () => json(200, { items: [], total: 0 }),
        'POST /internal/appointments/_schedule': () =>
          errorAnswer(400, 'Bad Request', 'No physician dr-hale.'),
      },
    });
    await screen.findByRole('table', { name: 'Upcoming appointments' }, { timeout: 40_000 });
    fireEvent.change(screen.getByLabelText(/^Date and time/), { target: { value: FUTURE } });
    await events.click(screen.getByRole('combobox', { name: /^Physician/ }));
    await events.click(await screen.findByRole('option', { name: 'Iris Hale' }));
    for (const [label, value] of [
      [/Appointment note/, 'Note'],
      [/Consumer note/, 'Note'],
      ['Conversation id', 'conv-1'],
    ] as const) {
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    }
    await events.click(screen.getByRole('button', { name: 'Schedule' }));
    await waitFor(() =>
      expect(
        screen.getByText(
          'Error trying to save. Try again. If the problem persists contact support about a server error. Bad Request - No physician dr-hale.',
        ),
      ).toBeInTheDocument(),
    );
  });
});
