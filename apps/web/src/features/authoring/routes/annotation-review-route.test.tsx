import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AuthoringJob } from '@loopdesk/contracts/routes/authoring.ts';
import { callsOf, errorAnswer, json, makeUser } from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { REVIEW_MESSAGES } from './annotation-review-route.tsx';

vi.setConfig({ testTimeout: 30_000 });

const REVIEWER = makeUser(['annotator'], { id: 'user-rex', email: 'rex@example.com' });
const KEY = '0b7c6d2e-1111-4a4a-8b8b-000000000002';
const TEXT = 'Asthma causes wheeze and cough at night.';
const E1 = '11111111-1111-4111-8111-111111111111';

const job = (over: Partial<AuthoringJob> = {}): AuthoringJob => ({
  key: KEY,
  code: 'asthma-0b7c6d2e',
  displayName: 'Asthma guideline',
  source: 'NICE',
  status: 'ANNOTATED_FOR_REVIEW',
  jobType: 'annotation review',
  provenance: [{ source: 'NICE' }],
  preparedText: TEXT,
  documentConcept: null,
  annotations: {
    entities: [
      {
        id: E1,
        start: 14,
        end: 20,
        extract: 'wheeze',
        category: 'Symptom',
        conceptName: 'Wheezing',
        CUI: 'C0043144',
        TUI: [],
      },
    ],
    relationships: [],
    provenance: { source: 'x', createdOn: '2026-11-26T10:00:00.000Z', system: 'portal' },
  },
  annotationsDraft: null,
  draftRestorable: false,
  version: 5,
  holder: null,
  annotatedBy: { userId: 'user-ann', email: 'ann@example.com' },
  review: null,
  ...over,
});

const routes = (review: () => Response) => ({
  'GET /internal/authoring/jobs': () => json(200, { items: [] }),
  [`POST /internal/authoring/jobs/${KEY}/_take`]: () => json(200, job()),
  [`POST /internal/authoring/jobs/${KEY}/_release`]: () => json(200, job()),
  [`POST /internal/authoring/jobs/${KEY}/review`]: review,
});

describe('Annotation Review screen: saving (issue 13 item 5)', () => {
  it('a 409 keeps the decisions on screen and says where the job is now, without reading it again', async () => {
    const { events, fetchMock } = renderApp({
      path: `/jobs/authoring-tasks/${KEY}/review`,
      user: REVIEWER,
      routes: routes(() =>
        json(409, {
          error: 'Conflict',
          message: "'Asthma guideline' was saved by someone else since you opened it.",
          current: job({ status: 'ANNOTATION_APPROVED', jobType: null, version: 6 }),
        }),
      ),
    });
    const decision = await screen.findByRole('group', { name: 'Decision on wheeze' });
    await events.click(within(decision).getByRole('button', { name: 'Reject' }));
    await events.click(screen.getByRole('button', { name: 'APPROVE' }));
    const alert = await screen.findByRole('alert');
    await waitFor(() =>
      expect(alert.textContent).toContain('was saved by someone else since you opened it.'),
    );
    expect(alert.textContent).toContain('It is now ANNOTATION_APPROVED.');
    expect(alert.textContent).toContain('Your decisions are still on this screen');
    // A reviewer has no copy to keep over a newer version.
    expect(within(alert).queryByRole('button', { name: 'Keep mine' })).toBeNull();
    expect(within(decision).getByRole('button', { name: 'Reject' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(callsOf(fetchMock)).not.toContain(`GET /internal/authoring/jobs/${KEY}`);
    expect(screen.getByLabelText('Current location').textContent).toBe(
      `/jobs/authoring-tasks/${KEY}/review`,
    );
  });

  it('another failure is a toast; the buttons work again', async () => {
    const { events } = renderApp({
      path: `/jobs/authoring-tasks/${KEY}/review`,
      user: REVIEWER,
      routes: routes(() => errorAnswer(502, 'Bad Gateway', 'The knowledge base is not answering.')),
    });
    await screen.findByRole('group', { name: 'Decision on wheeze' });
    await events.click(screen.getByRole('button', { name: 'APPROVE' }));
    expect(
      await screen.findByText('Bad Gateway - The knowledge base is not answering.'),
    ).toBeTruthy();
    expect(screen.queryByText(REVIEW_MESSAGES.approved)).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: 'APPROVE' })).not.toBeDisabled());
  });
});
