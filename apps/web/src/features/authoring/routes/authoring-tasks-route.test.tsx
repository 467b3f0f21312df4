import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AuthoringJobSummary } from '@loopdesk/contracts/routes/authoring.ts';
import { callsOf, json, makeUser } from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';

vi.setConfig({ testTimeout: 30_000 });

const ANN = makeUser(['annotator'], { id: 'user-ann', email: 'ann@example.com' });
const ROWS = 2_000;

const summary = (i: number): AuthoringJobSummary => ({
  key: `0b7c6d2e-1111-4a4a-8b8b-${String(i).padStart(12, '0')}`,
  code: `doc-${i}`,
  displayName: `Guideline ${i}`,
  source: 'NICE',
  status: 'DOCUMENT_APPROVED',
  jobType: 'annotation',
  holder: null,
  updatedOn: '2026-11-26T10:00:00.000Z',
});

const bodyRows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .filter((row) => row.getAttribute('aria-rowindex') !== '1');

describe('Authoring Tasks list with many documents', () => {
  it('draws only the rows on screen, reaches the others by scrolling, and opens one', async () => {
    const items = Array.from({ length: ROWS }, (_, i) => summary(i + 1));
    const far = items[1_499];
    const { events, fetchMock } = renderApp({
      path: '/jobs/authoring-tasks',
      user: ANN,
      routes: {
        'GET /internal/authoring/jobs': () => json(200, { items }),
        [`POST /internal/authoring/jobs/${far?.key}/_take`]: () =>
          json(200, {
            ...far,
            provenance: [],
            preparedText: 'Asthma.',
            documentConcept: null,
            annotations: null,
            annotationsDraft: null,
            draftRestorable: false,
            version: 0,
            annotatedBy: null,
            review: null,
          }),
      },
    });
    const table = await screen.findByRole('table', { name: 'Authoring tasks' });
    await within(table).findByRole('row', { name: 'Guideline 1, annotation' });
    expect(table.getAttribute('aria-rowcount')).toBe(String(ROWS + 1));
    expect(bodyRows(table).length).toBeLessThan(60);
    expect(within(table).queryByRole('row', { name: 'Guideline 1500, annotation' })).toBeNull();

    // Scroll the rows to the 1,500th document (rows are 48 px high).
    const scroller = bodyRows(table)[0]?.closest<HTMLElement>('[role="rowgroup"]');
    expect(scroller).toBeTruthy();
    if (!scroller) {
      return;
    }
    Object.defineProperty(scroller, 'scrollTop', { configurable: true, value: 1_499 * 48 });
    act(() => {
      fireEvent.scroll(scroller);
    });
    const row = await within(table).findByRole('row', { name: 'Guideline 1500, annotation' });
    expect(within(table).queryByRole('row', { name: 'Guideline 1, annotation' })).toBeNull();
    expect(bodyRows(table).length).toBeLessThan(60);

    await events.click(row);
    // The take answers, then the screen opens (a loaded machine can take a few seconds).
    await waitFor(
      () =>
        expect(screen.getByLabelText('Current location').textContent).toBe(
          `/jobs/authoring-tasks/${far?.key}`,
        ),
      { timeout: 10_000 },
    );
    expect(callsOf(fetchMock).filter((c) => c.endsWith('/_take'))).toEqual([
      `POST /internal/authoring/jobs/${far?.key}/_take`,
    ]);
  });

  it('says so when there is nothing to author', async () => {
    renderApp({
      path: '/jobs/authoring-tasks',
      user: ANN,
      routes: { 'GET /internal/authoring/jobs': () => json(200, { items: [] }) },
    });
    expect(await screen.findByText('No documents to author.')).toBeTruthy();
  });

  it('opens a row from the keyboard', async () => {
    const items = [summary(1), summary(2)];
    const { events } = renderApp({
      path: '/jobs/authoring-tasks',
      user: ANN,
      routes: {
        'GET /internal/authoring/jobs': () => json(200, { items }),
        [`POST /internal/authoring/jobs/${items[1]?.key}/_take`]: () =>
          json(409, { error: 'Conflict', message: 'bob@example.com is annotating it.' }),
      },
    });
    const row = await screen.findByRole('row', { name: 'Guideline 2, annotation' });
    act(() => row.focus());
    await events.keyboard('{Enter}');
    expect(await screen.findByText('Conflict - bob@example.com is annotating it.')).toBeTruthy();
    expect(screen.getByLabelText('Current location').textContent).toBe('/jobs/authoring-tasks');
  });
});
