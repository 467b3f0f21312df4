import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorAnswer, json, makeUser, type FakeHandler } from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { evaluation, PREDICTION, requestsTo } from '../../../test/features/test-tools/fixtures.ts';

const TEXT = 'fever, a temperature and right lower abdominal pain';
const EVALUATE_PATH = 'POST /internal/nlp/evaluate';
const PREDICT_PATH = 'POST /internal/intelligence/clinical_inference/differential_diagnosis';

const RECOGNISED = evaluation(TEXT, {
  normalisedObservations: [
    { id: 'LD:fever', display: 'fever' },
    { id: 'LD:fever-2', display: 'fever' },
    { id: 'LD:rlq-pain', display: 'right lower abdominal pain' },
    { id: 'LD:nausea', display: 'nausea' },
  ],
});

function renderTool(routes: Record<string, FakeHandler> = {}) {
  const view = renderApp({
    path: '/test/clinical-inference',
    user: makeUser(['medical']),
    routes: {
      [EVALUATE_PATH]: () => json(200, RECOGNISED),
      [PREDICT_PATH]: () => json(200, PREDICTION),
      ...routes,
    },
  });
  const bodiesOf = (suffix: string) =>
    requestsTo(view.fetchMock, suffix).map((request) => request.body);
  const chips = () =>
    within(screen.getByRole('list', { name: 'Selected observations' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
  return { ...view, bodiesOf, chips };
}

async function submit(events: ReturnType<typeof renderTool>['events']) {
  const input = await screen.findByRole('textbox', { name: 'Input Text' });
  await events.type(input, TEXT);
  await events.click(screen.getByRole('button', { name: 'SUBMIT TEXT' }));
}

describe('clinical inference test tool', { timeout: 20_000 }, () => {
  // The router loads the screen lazily: compile it once up front, not inside a test's wait.
  beforeAll(async () => {
    await import('./clinical-inference-route.tsx');
  });

  it('shows the recognised observations as chips, one per display name, and deletes them', async () => {
    const { events, chips, bodiesOf } = renderTool();
    const input = await screen.findByRole('textbox', { name: 'Input Text' });
    await waitFor(() => expect(screen.getByRole('banner')).toHaveTextContent('Clinical Inference'));
    expect(input).toHaveAttribute('rows', '5');

    await submit(events);
    await waitFor(() => expect(chips()).toEqual(['fever', 'right lower abdominal pain', 'nausea']));
    expect(bodiesOf('/internal/nlp/evaluate')).toEqual([{ text: TEXT }]);

    const nausea = screen.getByRole('button', { name: 'nausea' });
    await events.click(within(nausea).getByTestId('CancelIcon'));
    expect(chips()).toEqual(['fever', 'right lower abdominal pain']);
  });

  it('predicts with the display names only, without weights, and shows both tables', async () => {
    const { events, chips, bodiesOf } = renderTool();
    await submit(events);
    await waitFor(() => expect(chips()).toHaveLength(3));
    await events.click(
      within(screen.getByRole('button', { name: 'nausea' })).getByTestId('CancelIcon'),
    );
    await events.click(screen.getByRole('button', { name: 'PREDICT' }));

    const table = await screen.findByRole('table', { name: 'Differential Diagnosis Prediction' });
    expect(bodiesOf('/differential_diagnosis')).toEqual([
      {
        observations: [{ observation: 'fever' }, { observation: 'right lower abdominal pain' }],
      },
    ]);
    expect(within(table).getByText('0.96')).toBeInTheDocument();
    expect(within(table).queryByText('migraine')).not.toBeInTheDocument();
    expect(
      within(screen.getByRole('table', { name: 'Differentiating Observations' })).getByText('0.07'),
    ).toBeInTheDocument();
  });

  it('clears the chips on a new submit and disables PREDICT when none are left', async () => {
    let answer: unknown = RECOGNISED;
    const { events, chips } = renderTool({ [EVALUATE_PATH]: () => json(200, answer) });
    await submit(events);
    await waitFor(() => expect(chips()).toHaveLength(3));
    answer = evaluation(TEXT, { normalisedObservations: [] });
    await events.click(screen.getByRole('button', { name: 'SUBMIT TEXT' }));
    expect(await screen.findByText('No observations recognised.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'PREDICT' })).toBeDisabled();
  });

  it("a new text clears the last text's prediction", async () => {
    const { events, chips } = renderTool();
    await submit(events);
    await waitFor(() => expect(chips()).toHaveLength(3));
    await events.click(screen.getByRole('button', { name: 'PREDICT' }));
    await screen.findByRole('table', { name: 'Differential Diagnosis Prediction' });

    await events.type(screen.getByRole('textbox', { name: 'Input Text' }), ' and a cough');
    await events.click(screen.getByRole('button', { name: 'SUBMIT TEXT' }));
    await waitFor(() =>
      expect(
        screen.queryByRole('table', { name: 'Differential Diagnosis Prediction' }),
      ).not.toBeInTheDocument(),
    );
    await waitFor(() => expect(chips()).toHaveLength(3));
  });

  it('shows why the server refused a text instead of Service unavailable', async () => {
    const { events } = renderTool({
      [EVALUATE_PATH]: () =>
        errorAnswer(400, 'Bad Request', 'Invalid body: body.text must not be empty'),
    });
    await events.click(await screen.findByRole('button', { name: 'SUBMIT TEXT' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Bad Request - Invalid body: body.text must not be empty',
    );
  });

  it("toasts 'Service unavailable' when the text cannot be evaluated", async () => {
    const { events } = renderTool({
      [EVALUATE_PATH]: () => errorAnswer(503, 'Service Unavailable', 'down'),
    });
    await submit(events);
    expect(await screen.findByRole('alert')).toHaveTextContent('Service unavailable');
  });

  it("toasts 'Clinical Inference service unavailable' when the prediction fails", async () => {
    const { events, chips } = renderTool({
      [PREDICT_PATH]: () => errorAnswer(500, 'Internal Server Error', 'boom'),
    });
    await submit(events);
    await waitFor(() => expect(chips()).toHaveLength(3));
    await events.click(screen.getByRole('button', { name: 'PREDICT' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Clinical Inference service unavailable',
    );
  });
});
