import { screen, waitFor, within } from '@testing-library/react';
import type { AsyncTask } from '@loopdesk/contracts/async-jobs.ts';
import { expect } from 'vitest';
import { json, makeUser, type FakeHandler } from '../../fake-server.ts';
import { renderApp } from '../../render-app.tsx';
import { SERVED_PIPELINES, SLOW, requestsTo } from './fixtures.ts';

export const TASK_PATH = '/internal/async-jobs/pipelines/1/steps/s/tasks/task-1';
export const ROUTE = '/jobs/async/pipelines/1/steps/s/tasks/task-1';

const MODELS: Record<string, { bid: string; display: string }[]> = {
  conditions: [
    { bid: 'LD:influenza', display: 'influenza' },
    { bid: 'LD:pneumonia', display: 'pneumonia' },
  ],
  'pathological-processes': [
    { bid: 'LD:process/infection', display: 'infection' },
    { bid: 'LD:process/inflammation', display: 'inflammation' },
  ],
  'body-systems': [{ bid: 'LD:system/respiratory', display: 'respiratory system' }],
  'anatomical-locations': [{ bid: 'LD:location/lung', display: 'lung' }],
};
const modelRoutes: Record<string, FakeHandler> = Object.fromEntries(
  Object.entries(MODELS).map(([model, items]) => [
    `GET /internal/intelligence/ontology/models/${model}`,
    () => json(200, { items }),
  ]),
);

/** Renders the portal at a task's route with the task, the pipelines and the screens' lookups faked. */
export function renderTask(task: AsyncTask, routes: Record<string, FakeHandler> = {}) {
  const view = renderApp({
    path: ROUTE,
    user: makeUser(['annotator']),
    routes: {
      [`GET ${TASK_PATH}`]: () => json(200, task),
      // The task's screen is the one its step names.
      'GET /internal/async-jobs/pipelines': () => json(200, { items: SERVED_PIPELINES }),
      [`POST ${TASK_PATH}`]: () => json(200, { ...task, state: 'COMPLETED' }),
      [`DELETE ${TASK_PATH}`]: () => json(200, { ...task, state: 'DISCARDED' }),
      'GET /internal/utilities/typeahead': () =>
        json(200, {
          results: [
            { name: 'sepsis', canonicalName: 'Sepsis', conceptId: 'LD:sepsis', index: ['sepsis'] },
          ],
        }),
      'GET /internal/async-jobs/data/concept/_query': () =>
        json(200, {
          results: [
            { conceptId: 'LD:cough', canonicalName: 'cough', aliases: ['coughing'] },
            { conceptId: 'LD:fever', canonicalName: 'fever', aliases: ['high temperature'] },
          ],
        }),
      'GET /internal/intelligence/ontology/concepts/_classes': () =>
        json(200, {
          items: [
            { id: 'LD:fever', display: 'fever' },
            { id: 'LD:night-sweats', display: 'night sweats' },
          ],
        }),
      ...modelRoutes,
      ...routes,
    },
  });
  const submitted = () =>
    requestsTo(view.fetchMock, '/tasks/task-1')
      .filter((request) => request.method === 'POST')
      .map((request) => request.body);
  const location = () => screen.getByRole('status', { name: 'Current location' });
  /** Publish and answer 'Are you sure?'. */
  const publish = async () => {
    await view.events.click(screen.getByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish' });
    expect(dialog).toHaveTextContent('Are you sure?');
    await view.events.click(within(dialog).getByRole('button', { name: 'Publish' }));
  };
  /** Publish, confirm and wait for the way back to the dashboard. */
  const publishAndConfirm = async () => {
    await publish();
    await waitFor(() => expect(location()).toHaveTextContent(/^\/jobs\/async$/), SLOW);
  };
  return { ...view, submitted, location, publish, publishAndConfirm };
}

export async function expectToast(text: string) {
  await waitFor(() =>
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain(text),
  );
}

/** Opens a select (MUI TextField select) by its label and picks an option. */
export async function choose(
  events: { click: (element: Element) => Promise<void> },
  label: string | RegExp,
  option: string,
) {
  await events.click(screen.getByRole('combobox', { name: label }));
  const listbox = await screen.findByRole('listbox');
  await events.click(within(listbox).getByRole('option', { name: option }));
}
