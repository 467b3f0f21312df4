import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { errorAnswer, json, makeUser } from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';

vi.setConfig({ testTimeout: 45_000 });

const MEERA = makeUser(['medical'], { id: 'user-meera', email: 'meera@example.com' });
const APPOINTMENT = '11111111-2222-4333-8444-555555555555';
const LINK = {
  linkId: 'abc',
  purpose: 'telehealth.appointment',
  patient: 'demo-ivy',
  subject: APPOINTMENT,
  expiresAt: '2026-11-26T09:00:00.000Z',
  token: 'v1.payload.signature',
  url: 'http://localhost:8080/telehealth/join?token=v1.payload.signature',
};

const appointments = {
  items: [
    {
      id: APPOINTMENT,
      type: 'GENERAL',
      fromDateTime: '2026-12-01T09:00',
      duration: 15,
      timezone: 'America/Los_Angeles',
      startsAt: '2026-12-01T17:00:00.000Z',
      conversationId: 'conv-ivy',
      consumerId: 'demo-ivy',
      consumerEmail: null,
      staffId: 'dr-1',
      staffFirstName: 'Ana',
      staffLastName: 'Ruiz',
      consumerNote: 'Video visit',
      appointmentNote: 'Follow-up',
      status: 'SCHEDULED',
      createdOn: '2026-11-26T07:00:00.000Z',
      createdBy: 'meera@example.com',
    },
  ],
  total: 1,
};

describe('deep link generator', () => {
  it('signs a link for an appointment with the chosen expiry, and shows it with a copy button and a QR code', async () => {
    const bodies: unknown[] = [];
    const { events } = renderApp({
      path: '/deep-link-generator',
      user: MEERA,
      routes: {
        'GET /internal/experiment/appointments/_summary': () => json(200, appointments),
        'POST /internal/deep-links': (request) => {
          bodies.push(request.body);
          return json(201, LINK);
        },
      },
    });
    const generate = await screen.findByRole(
      'button',
      { name: 'Generate link' },
      { timeout: 15_000 },
    );
    expect(generate).toBeDisabled();
    await events.click(screen.getByRole('combobox', { name: 'Appointment' }));
    await events.click(await screen.findByRole('option', { name: /Ana Ruiz — demo-ivy/ }));
    await events.click(screen.getByRole('combobox', { name: 'Expires after' }));
    await events.click(await screen.findByRole('option', { name: '24 hours' }));
    await events.click(generate);

    const result = await screen.findByRole('region', { name: 'Signed link' });
    expect(within(result).getByRole('textbox', { name: 'Link' })).toHaveValue(LINK.url);
    expect(bodies).toEqual([
      { purpose: 'telehealth.appointment', expiresInMinutes: 1440, appointmentId: APPOINTMENT },
    ]);
    expect(await within(result).findByRole('img', { name: 'QR code of the link' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/png;base64,/),
    );
    await events.click(within(result).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Link copied.')).toBeInTheDocument();
    // user-event stands in for the clipboard: it holds the link.
    expect(await navigator.clipboard.readText()).toBe(LINK.url);
  });

  it('makes a link for a conversation, and says why the server refused one', async () => {
    const { events } = renderApp({
      path: '/deep-link-generator',
      user: MEERA,
      routes: {
        'GET /internal/experiment/appointments/_summary': () => json(200, { items: [], total: 0 }),
        'POST /internal/deep-links': () =>
          errorAnswer(
            404,
            'Not Found',
            "No conversation with the id 'conv-x': check the conversation id.",
          ),
      },
    });
    await events.click(
      await screen.findByRole('radio', { name: 'A conversation' }, { timeout: 15_000 }),
    );
    await events.type(screen.getByRole('textbox', { name: 'Conversation id' }), 'conv-x');
    await events.click(screen.getByRole('button', { name: 'Generate link' }));
    expect(
      await screen.findByText(
        "The link could not be made - Not Found - No conversation with the id 'conv-x': check the conversation id.",
      ),
    ).toBeInTheDocument();
  });
});
