import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  callsOf,
  errorAnswer,
  json,
  makeUser,
  type FakeHandler,
} from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';
import {
  COMPLICATIONS_PIPELINE,
  makeTask,
  REPHRASE_PIPELINE,
  SLOW,
  withStats,
} from '../../../test/features/async-jobs/fixtures.ts';

const BASE = '/internal/async-jobs/pipelines';

function renderDashboard(routes: Record<string, FakeHandler> = {}) {
  return renderApp({
    path: '/jobs/async',
    user: makeUser(['annotator']),
    routes: {
      [`GET ${BASE}`]: () => json(200, { items: [REPHRASE_PIPELINE, COMPLICATIONS_PIPELINE] }),
      [`GET ${BASE}/1`]: () =>
        json(200, withStats(REPHRASE_PIPELINE, { rephrase: 2, rephrase_approval: 0 })),
      [`GET ${BASE}/4`]: () =>
        json(200, withStats(COMPLICATIONS_PIPELINE, { add_complications: 1 })),
      ...routes,
    },
  });
}

const card = (name: string) => screen.getByRole('article', { name });

describe('async jobs dashboard', { timeout: 20_000 }, () => {
  beforeAll(async () => {
    await import('./async-dashboard-route.tsx');
  });

  it('shows a section per pipeline and a card per step, the empty step disabled', async () => {
    renderDashboard();
    expect(
      await screen.findByRole('heading', { name: 'Rephrase', level: 2 }, SLOW),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('banner')).toHaveTextContent('Asynchronous Jobs - Dashboard'),
    );
    expect(screen.getByRole('heading', { name: 'Condition complications' })).toBeInTheDocument();

    await waitFor(() => expect(within(card('Rephrase')).getByText('Jobs: 2')).toBeInTheDocument());
    expect(within(card('Rephrase')).getByRole('button', { name: 'Take Next Job' })).toBeEnabled();
    expect(
      within(card('Rephrase')).getByText('Write at least 2 other wordings of the text.'),
    ).toBeInTheDocument();

    // Underscores shown as spaces; a count under 1 reads 'Job queue empty' and is disabled.
    const approval = card('Rephrase approval');
    expect(within(approval).getByText('Jobs: 0')).toBeInTheDocument();
    expect(within(approval).getByRole('button', { name: 'Job queue empty' })).toBeDisabled();
  });

  it('offers the plus button only for a pipeline with an input form', async () => {
    const { events } = renderDashboard();
    await screen.findByRole('heading', { name: 'Rephrase', level: 2 }, SLOW);
    expect(screen.queryByRole('button', { name: 'Add a job to Rephrase' })).not.toBeInTheDocument();
    await events.click(
      screen.getByRole('button', { name: 'Add a job to Condition complications' }),
    );
    await waitFor(
      () =>
        expect(screen.getByRole('status', { name: 'Current location' })).toHaveTextContent(
          '/jobs/async/pipelines/4/_add_task',
        ),
      SLOW,
    );
  });

  it('takes the next job and opens its task', async () => {
    const { events, fetchMock } = renderDashboard({
      [`GET ${BASE}/1/steps/rephrase/_pop`]: () =>
        json(200, makeTask('text.rephrase', 'REGISTERED', { id: 'abc' })),
      [`GET ${BASE}/1/steps/rephrase/tasks/abc`]: () =>
        json(200, makeTask('text.rephrase', 'REGISTERED', { id: 'abc' })),
    });
    await waitFor(() => expect(within(card('Rephrase')).getByText('Jobs: 2')).toBeInTheDocument());
    await events.click(within(card('Rephrase')).getByRole('button', { name: 'Take Next Job' }));
    await waitFor(
      () =>
        expect(screen.getByRole('status', { name: 'Current location' })).toHaveTextContent(
          '/jobs/async/pipelines/1/steps/rephrase/tasks/abc',
        ),
      SLOW,
    );
    expect(callsOf(fetchMock)).toContain(`GET ${BASE}/1/steps/rephrase/_pop`);
  });

  it("says 'Job queue empty' when the pop finds nothing", async () => {
    const { events } = renderDashboard({
      [`GET ${BASE}/1/steps/rephrase/_pop`]: () => errorAnswer(404, 'Not Found', 'Job queue empty'),
    });
    await waitFor(() => expect(within(card('Rephrase')).getByText('Jobs: 2')).toBeInTheDocument());
    await events.click(within(card('Rephrase')).getByRole('button', { name: 'Take Next Job' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Job queue empty$/);
    expect(screen.getByRole('status', { name: 'Current location' })).toHaveTextContent(
      /^\/jobs\/async$/,
    );
  });
});
