import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { SummaryJob } from '@loopdesk/contracts/summaries.ts';
import { errorAnswer, json, makeUser, type FakeRequest } from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';

vi.setConfig({ testTimeout: 30_000 });
// The screen is lazy-loaded: its first render waits for its module.
const LOAD = { timeout: 10_000 };

const ANN = makeUser(['annotator']);
const PATH = '/jobs/clinical-summary';
const JOB_ID = '0b9c3c1e-6d4f-4a51-9a43-2b1f0f7d9e10';
const SIZE = 'GET /internal/queues/hpi-summarisation/_size';
const NEXT = 'GET /internal/job-types/hpi-summarisation/jobs/_next';
const SEND = `POST /internal/job-types/hpi-summarisation/jobs/${JOB_ID}/_send`;
const MESSAGES = `GET /internal/job-types/hpi-summarisation/jobs/${JOB_ID}/messages`;

const job: SummaryJob = {
  id: JOB_ID,
  metadata: { tenant: 'acme-clinic', conversationId: 'conv-1' },
  document: {
    sections: [
      {
        id: 'history_of_present_illness',
        content: 'Fever for two days with a sore throat.',
        annotations: [{ id: 'a1', start: 0, end: 5, code: 'C0015967' }],
      },
    ],
    codes: [
      { source: 'snomed', code: { system: 'UMLS', code: 'C0015967', value: 'fever' } },
      { source: 'snomed', code: { system: 'ICD-10', code: 'R50.9', value: 'fever' } },
    ],
  },
  sourceName: 'demo-assistant',
  sourceVersion: '1.0.0',
};

const messages = (page: number) => ({
  items: Array.from({ length: page === 0 ? 10 : 2 }, (_, i) => ({
    id: `m-${page * 10 + i + 1}`,
    conversationId: 'conv-1',
    direction: 'IN',
    content: `Message ${page * 10 + i + 1}`,
    createdOn: '2026-11-26T08:00:00.000Z',
    author: { kind: 'patient', id: 'p-1', name: 'Maya Okafor' },
    metadata: { entities: [] },
    translation: null,
    replyTo: null,
    replyType: null,
  })),
  page: { number: page, size: 10, total: 12, totalPages: 2 },
});

const typeahead = {
  results: [
    {
      name: 'high temperature',
      canonicalName: 'hyperthermia',
      conceptId: 'LD:hyperthermia',
      index: [],
      sources: [
        { system: 'UMLS', code: 'C0015970' },
        { system: 'ICD10CM', code: 'T67.0' },
      ],
    },
  ],
};

describe('Clinical Summary Review Jobs', () => {
  it('shows the queue size, and unknown when it cannot be read', async () => {
    const first = renderApp({
      path: PATH,
      user: ANN,
      routes: { [SIZE]: () => json(200, { size: 3 }) },
    });
    expect(await screen.findByText('There are 3 jobs in the queue.', {}, LOAD)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Get next job' })).toBeEnabled();
    first.unmount();

    renderApp({
      path: PATH,
      user: ANN,
      routes: { [SIZE]: () => errorAnswer(500, 'Internal Server Error', 'down') },
    });
    expect(
      await screen.findByText('There are unknown jobs in the queue.', {}, LOAD),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Get next job' })).not.toBeInTheDocument();
  });

  it('a reviewer takes a job, changes a code with the typeahead, reads the transcript and sends the note', async () => {
    const sent: FakeRequest[] = [];
    const { events } = renderApp({
      path: PATH,
      user: ANN,
      routes: {
        [SIZE]: () => json(200, { size: 1 }),
        [NEXT]: () => json(200, job),
        [MESSAGES]: (request) => json(200, messages(Number(request.query.get('p') ?? 0))),
        'GET /internal/utilities/typeahead': (request) =>
          json(200, request.query.get('t') === 'hyper' ? typeahead : { results: [] }),
        [`PATCH /internal/job-types/hpi-summarisation/jobs/${JOB_ID}`]: (request) =>
          json(200, request.body),
        [SEND]: (request) => {
          sent.push(request);
          return json(200, { ...(request.body as object), sentAt: 'now', sentBy: ANN.email });
        },
      },
    });
    await events.click(await screen.findByRole('button', { name: 'Get next job' }, LOAD));
    expect(await screen.findByRole('heading', { name: 'Clinical Summary' })).toBeInTheDocument();

    // The transcript tab: pages of 10.
    const transcript = await screen.findByRole('list', { name: 'Transcript' }, LOAD);
    expect(within(transcript).getAllByRole('listitem')).toHaveLength(10);
    await events.click(screen.getByRole('button', { name: 'Go to page 2' }));
    await waitFor(() => expect(screen.getByText('Message 12')).toBeInTheDocument());

    // The highlight of 'Fever' is pressed: its codes show; the typeahead asks from 3 characters.
    await events.click(
      screen.getByRole('button', { name: /^Fever \(fever: UMLS C0015967 · ICD-10 R50.9\)/ }),
    );
    expect(screen.getByText('“Fever” is coded UMLS C0015967 · ICD-10 R50.9')).toBeInTheDocument();
    const picker = screen.getByRole('combobox', { name: 'Change code' });
    await events.clear(picker);
    await events.type(picker, 'hy');
    expect(await screen.findByText('Type at least 3 characters')).toBeInTheDocument();
    await events.type(picker, 'per');
    await events.click(await screen.findByRole('option', { name: /hyperthermia/ }));
    expect(
      screen.getByRole('button', { name: /^Fever \(hyperthermia: UMLS C0015970 · ICD-10 T67.0\)/ }),
    ).toBeInTheDocument();

    await events.click(screen.getByRole('button', { name: 'Send clinical note to physician' }));
    expect(await screen.findByText('Clinical note sent to the physician.')).toBeInTheDocument();
    expect(sent[0]?.headers.get('x-tenant-id')).toBe('acme-clinic');
    expect((sent[0]?.body as SummaryJob).document).toEqual({
      sections: [
        {
          ...job.document.sections[0]!,
          annotations: [{ id: 'a1', start: 0, end: 5, code: 'C0015970' }],
        },
      ],
      codes: [
        { source: 'manual', code: { system: 'UMLS', code: 'C0015970', value: 'hyperthermia' } },
        { source: 'manual', code: { system: 'ICD-10', code: 'T67.0', value: 'hyperthermia' } },
      ],
    });
    // Back at the queue.
    expect(await screen.findByText('There are 1 jobs in the queue.')).toBeInTheDocument();
  });

  it('removes a code; a failed send says why and keeps the job; a failed next job leaves the queue view', async () => {
    let nextFails = true;
    const { events } = renderApp({
      path: PATH,
      user: ANN,
      routes: {
        [SIZE]: () => json(200, { size: 1 }),
        [NEXT]: () =>
          nextFails ? errorAnswer(500, 'Internal Server Error', 'down') : json(200, job),
        [MESSAGES]: () => json(200, messages(0)),
        [SEND]: () =>
          errorAnswer(409, 'Conflict', `You do not hold summary job ${JOB_ID} (any more).`),
      },
    });
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await events.click(await screen.findByRole('button', { name: 'Get next job' }, LOAD));
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(screen.getByText('There are 1 jobs in the queue.')).toBeInTheDocument();
    error.mockRestore();

    nextFails = false;
    await events.click(screen.getByRole('button', { name: 'Get next job' }));
    await events.click(await screen.findByRole('button', { name: /^Fever \(/ }));
    await events.click(screen.getByRole('button', { name: 'Remove code' }));
    expect(screen.queryByRole('button', { name: /^Fever \(/ })).not.toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Send clinical note to physician' }));
    expect(
      await screen.findByText(`Conflict - You do not hold summary job ${JOB_ID} (any more).`),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Clinical Summary' })).toBeInTheDocument();
  });
});
