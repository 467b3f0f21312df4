import { screen, waitFor } from '@testing-library/react';
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
  makeTask,
  requestsTo,
  SERVED_PIPELINES,
  SLOW,
} from '../../../test/features/async-jobs/fixtures.ts';

const ADD_PATH = (id: string) => `POST /internal/async-jobs/pipelines/${id}/_add_task`;

function renderAddTask(pipelineId: string, routes: Record<string, FakeHandler> = {}) {
  return renderApp({
    path: `/jobs/async/pipelines/${pipelineId}/_add_task`,
    user: makeUser(['annotator']),
    routes: {
      'POST /internal/intelligence/ontology/concepts/_search': () =>
        json(200, {
          results: [
            {
              canonicalName: 'Pneumonia',
              conceptId: 'LD:pneumonia',
              index: ['lung infection'],
              class: 'condition',
              score: 1,
            },
          ],
        }),
      [ADD_PATH(pipelineId)]: () => json(201, makeTask('condition.observations', 'REGISTERED')),
      // The form's title and the task type are the served pipeline's (those that take new jobs).
      'GET /internal/async-jobs/pipelines': () =>
        json(200, { items: SERVED_PIPELINES.filter((pipeline) => pipeline.definition.input) }),
      ...routes,
    },
  });
}

describe('add job', { timeout: 20_000 }, () => {
  beforeAll(async () => {
    await import('./add-task-route.tsx');
  });

  it('keeps Publish disabled until a condition and the source material are set, then adds the task', async () => {
    const { events, fetchMock } = renderAddTask('3');
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Add a new condition to relationship pipeline' },
        SLOW,
      ),
    ).toBeInTheDocument();
    const publish = screen.getByRole('button', { name: 'Publish' });
    expect(publish).toBeDisabled();

    const condition = screen.getByRole('combobox', { name: /Condition/ });
    await events.type(condition, 'pn');
    expect(callsOf(fetchMock)).not.toContain(
      'POST /internal/intelligence/ontology/concepts/_search',
    );
    await events.type(condition, 'e');
    await events.click(await screen.findByRole('option', { name: 'Pneumonia' }));
    // Conditions only, searched from 3 characters.
    const search = requestsTo(fetchMock, '/internal/intelligence/ontology/concepts/_search').at(-1);
    expect(search?.body).toEqual({ query: 'pne', dataType: ['condition'] });
    expect(publish).toBeDisabled();

    await events.type(
      screen.getByRole('textbox', { name: /Source material/ }),
      'https://nice.org.uk',
    );
    await events.type(screen.getByRole('textbox', { name: 'Notes' }), 'From the guideline');
    expect(publish).toBeEnabled();
    await events.click(publish);

    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Current location' })).toHaveTextContent(
        /^\/jobs\/async$/,
      ),
    );
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain(
        'Success: “Pneumonia” was added to Condition relationships.',
      ),
    );
    const [request] = requestsTo(fetchMock, '/pipelines/3/_add_task');
    expect(request?.body).toMatchObject({
      data: {
        condition: 'Pneumonia',
        reference: 'https://nice.org.uk',
        notes: 'From the guideline',
        cui: 'LD:pneumonia',
      },
      jobType: 'hitl.jobs.async.condition.observations',
      jobClass: 'clinical',
      state: 'REGISTERED',
      version: '0.0.1',
      metadata: {},
      changeLog: [],
    });
  });

  it('titles pipeline 4 and shows a refused add as an error', async () => {
    const { events } = renderAddTask('4', {
      [ADD_PATH('4')]: () => errorAnswer(400, 'Bad Request', 'No such condition.'),
    });
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Add a new condition to complication pipeline' },
        SLOW,
      ),
    ).toBeInTheDocument();
    await events.type(screen.getByRole('combobox', { name: /Condition/ }), 'pne');
    await events.click(await screen.findByRole('option', { name: 'Pneumonia' }));
    await events.type(screen.getByRole('textbox', { name: /Source material/ }), 'A source');
    await events.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Bad Request - No such condition.');
    expect(screen.getByRole('status', { name: 'Current location' })).toHaveTextContent(
      '/jobs/async/pipelines/4/_add_task',
    );
  });

  it('takes a condition the knowledge base does not have yet, and says so', async () => {
    const { events, fetchMock } = renderAddTask('4', {
      'POST /internal/intelligence/ontology/concepts/_search': () => json(200, { results: [] }),
    });
    await events.type(
      await screen.findByRole('combobox', { name: /Condition/ }),
      'Alpha-gal syndrome',
    );
    expect(
      await screen.findByText(/Not in the knowledge base yet: approving this job adds it/),
    ).toBeInTheDocument();
    await events.type(screen.getByRole('textbox', { name: /Source material/ }), 'Case report');
    await events.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(requestsTo(fetchMock, '/pipelines/4/_add_task')).toHaveLength(1));
    expect(requestsTo(fetchMock, '/pipelines/4/_add_task')[0]?.body).toMatchObject({
      data: { condition: 'Alpha-gal syndrome', reference: 'Case report', notes: '', cui: null },
      jobType: 'hitl.jobs.async.condition.complications',
    });
  });
});
