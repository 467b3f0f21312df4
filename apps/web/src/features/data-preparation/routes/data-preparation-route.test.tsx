import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { DataPreparationJob } from '@loopdesk/contracts/data-preparation.ts';
import {
  callsOf,
  errorAnswer,
  json,
  makeUser,
  type FakeRequest,
} from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';

vi.setConfig({ testTimeout: 30_000 });

const EVE = makeUser(['experimental'], { id: 'user-eve', email: 'eve@example.com' });
const KEY = '0b7c6d2e-1111-4a4a-8b8b-000000000001';

const job = (over: Partial<DataPreparationJob> = {}): DataPreparationJob => ({
  key: KEY,
  code: 'asthma-0b7c6d2e',
  displayName: 'Asthma',
  status: 'REGISTERED',
  rejectionComment: null,
  containsImages: false,
  containsTables: false,
  provenance: [],
  classification: [],
  references: [
    {
      code: { system: 'decoded-portal', code: 'original' },
      reference: 'asthma.txt',
      contentType: 'text/plain',
    },
  ],
  preparedText: 'Extracted words',
  extraction: {
    fileName: 'asthma.txt',
    contentType: 'text/plain',
    bytes: 15,
    pages: 1,
    textLayer: true,
  },
  ...over,
});

const lists = {
  'GET /internal/data-preparation/metadata/_size': () => json(200, { size: 3 }),
  'GET /internal/data-preparation/metadata/summary': (request: FakeRequest) =>
    json(200, {
      items:
        request.query.get('status') === 'REGISTERED'
          ? [
              {
                key: KEY,
                code: 'asthma-0b7c6d2e',
                displayName: 'Asthma',
                status: 'REGISTERED',
                source: 'NICE',
                demo: true,
              },
            ]
          : [],
    }),
};

const jobRoutes = (current: DataPreparationJob, saved: unknown[]) => ({
  ...lists,
  'GET /internal/data-preparation/metadata/asthma-key': () => json(404, {}),
  [`GET /internal/data-preparation/metadata/${KEY}`]: () => json(200, current),
  [`GET /internal/data-preparation/document/text/${KEY}`]: () =>
    new Response('Original words', { status: 200, headers: { 'content-type': 'text/plain' } }),
  'GET /internal/data-preparation/query/umls_view': () =>
    json(200, {
      results: [
        {
          name: 'asthma',
          conceptId: 'LD:asthma',
          relevance: 1,
          types: ['Disease or Syndrome'],
          sources: [
            { system: 'UMLS', code: 'C0004096' },
            { system: 'ICD10CM', code: 'J45' },
          ],
        },
      ],
    }),
  [`POST /internal/data-preparation/document/${current.code}.prepared.txt`]: () =>
    json(201, {
      code: { system: 'decoded-portal', code: 'prepared' },
      reference: 'x',
      contentType: 'text/plain',
    }),
  [`POST /internal/data-preparation/document/${current.code}.prepared.approved.txt`]: () =>
    json(201, {
      code: { system: 'decoded-portal', code: 'prepared-approved' },
      reference: 'x',
      contentType: 'text/plain',
    }),
  'POST /internal/data-preparation/metadata': (request: FakeRequest) => {
    saved.push(request.body);
    return json(200, { ...current, ...(request.body as object) });
  },
});

describe('data preparation screen (spec 2 §2)', () => {
  it('shows the queue count, Get next job, the upload and the registered list', async () => {
    renderApp({ path: '/jobs/data-preparation', user: EVE, routes: lists });
    expect(
      await screen.findByText('There are 3 registered jobs in the queue.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Get next job' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Upload a document' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Registered documents' });
    expect(within(list).getByText('Asthma')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Registered',
      'Preparation review',
      'Annotation',
    ]);
  });

  it('prepares a job: the form, the required fields, the concept sets CUI and ICD10, SUBMIT', async () => {
    const saved: unknown[] = [];
    const { events, fetchMock } = renderApp({
      path: `/jobs/data-preparation/${KEY}`,
      user: EVE,
      routes: jobRoutes(job(), saved),
    });
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Data Preparation Job: asthma.txt' },
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Prepared Text')).toHaveValue('Extracted words');
    expect(await screen.findByLabelText('Original text')).toHaveValue('Original words');
    await events.click(screen.getByRole('button', { name: 'SUBMIT' }));
    expect(
      await screen.findByText('Document name, document source and CUI are required.'),
    ).toBeInTheDocument();
    expect(saved).toHaveLength(0);

    await events.type(screen.getByLabelText(/Document Source/), 'NICE');
    await events.type(screen.getByLabelText('Concept'), 'asth');
    await events.click(await screen.findByRole('option', { name: 'asthma' }));
    expect(screen.getByLabelText(/CUI/)).toHaveValue('C0004096');
    expect(screen.getByLabelText('ICD10')).toHaveValue('J45');
    await events.click(screen.getByRole('button', { name: 'SUBMIT' }));
    expect(
      await screen.findByText('Successfully submitted document!', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(saved[0]).toMatchObject({
      status: 'PREPARED_FOR_REVIEW',
      provenance: [{ source: 'NICE' }],
      classification: [
        { system: 'UMLS', code: 'C0004096' },
        { system: 'ICD-10', code: 'J45' },
      ],
    });
    expect(callsOf(fetchMock)).toContain(
      'POST /internal/data-preparation/document/asthma-0b7c6d2e.prepared.txt',
    );
  });

  it('reviews: Extracted Text, APPROVE, and REJECT DOCUMENT needs a Comment', async () => {
    const saved: unknown[] = [];
    const review = job({
      status: 'PREPARED_FOR_REVIEW',
      provenance: [{ source: 'NICE', publishedDate: null, pageNumber: null }],
      classification: [{ system: 'UMLS', code: 'C0004096', display: 'asthma' }],
    });
    const { events } = renderApp({
      path: `/jobs/data-preparation/${KEY}`,
      user: EVE,
      routes: jobRoutes(review, saved),
    });
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Data Preparation Review: asthma.txt' },
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Extracted Text')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'REJECT DOCUMENT' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject document' });
    await events.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getByText('A rejection comment is required.')).toBeInTheDocument();
    expect(saved).toHaveLength(0);
    await events.type(within(dialog).getByLabelText(/Comment/), 'Wrong edition');
    await events.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Document rejected')).toBeInTheDocument();
    expect(saved[0]).toMatchObject({ status: 'REJECTED', rejectionComment: 'Wrong edition' });
  });

  it('says Error rejecting document when the rejection fails, and returns to the list when a job cannot load', async () => {
    const review = job({ status: 'PREPARED_FOR_REVIEW' });
    const { events } = renderApp({
      path: `/jobs/data-preparation/${KEY}`,
      user: EVE,
      routes: {
        ...jobRoutes(review, []),
        'POST /internal/data-preparation/metadata': () =>
          errorAnswer(403, 'Forbidden', 'You prepared this document (four eyes).'),
      },
    });
    await events.click(
      await screen.findByRole('button', { name: 'REJECT DOCUMENT' }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Reject document' });
    await events.type(within(dialog).getByLabelText(/Comment/), 'No');
    await events.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Error rejecting document')).toBeInTheDocument();
  });

  it('returns to the list with the HTTP error when the job does not load', async () => {
    renderApp({ path: '/jobs/data-preparation/unknown', user: EVE, routes: lists });
    await waitFor(() =>
      expect(screen.getByText(/There are 3 registered jobs in the queue/)).toBeInTheDocument(),
    );
    expect(await screen.findByText(/No fake for GET/)).toBeInTheDocument();
  });
});
