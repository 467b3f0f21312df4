import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnalyticsFigures } from '@loopdesk/contracts/analytics.ts';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client.ts';
import { errorAnswer, installFakeServer, json } from '../../../test/fake-server.ts';
import { AnalyticsPage } from './analytics-page.tsx';

const p = (count: number, p50: number | null) => ({ count, p50, p90: p50, p99: p50 });

function figures(people: AnalyticsFigures['people']): AnalyticsFigures {
  const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
  return {
    filters: {
      from: new Date(Date.now() - 86_400_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
      type: null,
      queue: null,
      tenant: null,
    },
    options: { types: ['message.annotation.job'], queues: ['federated'], tenants: ['acme'] },
    refreshedAt: new Date().toISOString(),
    queues: {
      depth: [{ hour, queue: 'federated', open: 2 }],
      hourly: [{ hour, arrivals: 3, completions: 1 }],
      oldest: [{ queue: 'federated', waiting: 2, oldestQueuedAt: hour, ageSeconds: 120 }],
    },
    times: [{ type: 'message.annotation.job', wait: p(1, 4), handle: p(1, 30), total: p(1, 34) }],
    desk: {
      handovers: 1,
      firstReply: p(1, 12),
      withHuman: p(1, 60),
      handbacks: 0,
      ends: 1,
      open: 0,
    },
    outcomes: [
      {
        type: 'message.annotation.job',
        completed: 1,
        exceptions: 1,
        cancelled: 0,
        dead: 0,
        requeues: 0,
      },
    ],
    discards: [],
    people,
    agreement: {
      byType: [{ type: 'message.annotation.job', samples: 2, f1: 0.6, items: 6, kappa: 0.1818 }],
      byPair: people
        ? [
            {
              first: { userId: 'u1', name: 'Ann' },
              second: { userId: 'u2', name: 'Ben' },
              samples: 2,
              f1: 0.6,
              items: 6,
              kappa: 0.1818,
            },
          ]
        : null,
      disagreements: [
        {
          jobId: 'job-1',
          sampleJobId: 'sample-1',
          type: 'message.annotation.job',
          tenant: 'acme',
          answeredAt: hour,
          firstSpans: 3,
          secondSpans: 3,
          matchedSpans: 1,
          categoryDisagreements: 3,
          outcomeDiffers: false,
        },
      ],
    },
  };
}

/** A Blob's text (jsdom's Blob has no text()). */
function readBlob(blob: Blob | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(new Error('unreadable'));
    reader.readAsText(blob ?? new Blob([]));
  });
}

function renderPage(answer: AnalyticsFigures | Response, people = false) {
  const fetchMock = installFakeServer({
    'GET /internal/analytics/embed/_open': ({ query }) =>
      query.get('token') === 'good'
        ? json(200, { viewToken: 'view-1', expiresAt: new Date().toISOString(), people })
        : errorAnswer(401, 'Unauthorized', 'The analytics address has been altered.'),
    'GET /internal/analytics/embed/figures': ({ headers }) =>
      headers.get('X-Analytics-View') === 'view-1'
        ? answer instanceof Response
          ? answer
          : json(200, answer)
        : errorAnswer(401, 'Unauthorized', 'no view token'),
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AnalyticsPage token="good" />
    </QueryClientProvider>,
  );
  return fetchMock;
}

describe('the built-in analytics page (issue 16)', () => {
  it('shows every group of figures, without the people for a non-lead', async () => {
    renderPage(figures(null));
    expect(await screen.findByRole('region', { name: 'Queues' })).toBeVisible();
    for (const title of [
      'Open jobs per queue',
      'Arrivals and completions per hour',
      'Oldest waiting job',
      'Wait per job type',
      'Handle time per job type',
      'End to end per job type',
      'Exception desk',
      'Outcomes per job type',
    ]) {
      expect(screen.getByRole('region', { name: title })).toBeVisible();
    }
    expect(screen.getByRole('region', { name: 'Exception desk' })).toHaveTextContent(
      '1 handover to humans',
    );
    expect(screen.queryByRole('region', { name: 'Per technician' })).not.toBeInTheDocument();
    // Agreement per job type and the disagreements for everyone; pairs for leads only.
    expect(
      within(screen.getByRole('region', { name: 'Agreement per job type' })).getByRole('row', {
        name: 'message.annotation.job 2 0.60 6 0.18',
      }),
    ).toBeVisible();
    expect(
      within(screen.getByRole('region', { name: 'Disagreements to review' })).getByRole('row', {
        name: /^job-1 sample-1 message\.annotation\.job acme .* 3 \/ 3 \/ 1 3 no$/,
      }),
    ).toBeVisible();
    expect(
      screen.queryByRole('region', { name: 'Agreement per pair of technicians' }),
    ).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Discarded async tasks' })).toHaveTextContent(
      'No data for these filters.',
    );
  });

  it('shows the people to a lead, and exports a chart as CSV', async () => {
    const person = {
      userId: 'u1',
      name: 'Ann',
      jobs: 4,
      activeHours: 2,
      jobsPerHour: 2,
      handle: p(4, 30),
      exceptions: 1,
      exceptionRate: 0.25,
    };
    renderPage(figures([person]), true);
    const people = await screen.findByRole('region', { name: 'Per technician' });
    expect(within(people).getByRole('row', { name: /^Ann 4 2 2 30 s 30 s 1 25%$/ })).toBeVisible();
    expect(
      within(screen.getByRole('region', { name: 'Agreement per pair of technicians' })).getByRole(
        'row',
        { name: 'Ann & Ben 2 0.60 0.18' },
      ),
    ).toBeVisible();

    const created: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:csv';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi
      .spyOn(HTMLAnchorElement.prototype, 'click')
      .mockImplementation(() => undefined);
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV of Per technician' }));
    expect(click).toHaveBeenCalledOnce();
    expect(await readBlob(created[0])).toBe(
      'Technician,Jobs answered,Active hours,Jobs per active hour,Handle p50,Handle p90,Exceptions,Exception rate\r\n' +
        'Ann,4,2,2,30 s,30 s,1,25%\r\n',
    );
  });

  it('says what went wrong with the figures, and with the address', async () => {
    renderPage(errorAnswer(400, 'Bad Request', "Unknown tenant 'x': choose one of acme."));
    expect(await screen.findByRole('alert')).toHaveTextContent("Unknown tenant 'x'");
  });
});
