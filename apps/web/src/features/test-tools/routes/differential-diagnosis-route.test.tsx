import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  callsOf,
  errorAnswer,
  json,
  makeUser,
  type FakeHandler,
} from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { PredictionTables } from '../components/prediction-tables.tsx';
import {
  observationSearch,
  PREDICTION,
  requestsTo,
} from '../../../test/features/test-tools/fixtures.ts';

const OBSERVATIONS_PATH = 'POST /internal/intelligence/ontology/concepts/_search';
const PREDICT_PATH = 'POST /internal/intelligence/clinical_inference/differential_diagnosis';

function renderTool(routes: Record<string, FakeHandler> = {}) {
  const view = renderApp({
    path: '/test/differential-diagnosis',
    user: makeUser(['medical']),
    routes: {
      [OBSERVATIONS_PATH]: (request) => json(200, observationSearch(request.body)),
      [PREDICT_PATH]: () => json(200, PREDICTION),
      ...routes,
    },
  });
  const row = (n: number) => screen.getByRole('listitem', { name: `Observation ${n}` });
  const predictBodies = () =>
    requestsTo(view.fetchMock, '/differential_diagnosis').map((request) => request.body);
  return { ...view, row, predictBodies };
}

describe('differential diagnosis test tool', { timeout: 20_000 }, () => {
  // The router loads the screen lazily: compile it once up front, not inside a test's wait.
  beforeAll(async () => {
    await import('./differential-diagnosis-route.tsx');
  });

  it('adds rows with weight 1, removes the last one, and keeps PREDICT disabled without rows', async () => {
    const { events, row } = renderTool();
    const add = await screen.findByRole('button', { name: 'ADD OBSERVATION' });
    await waitFor(() =>
      expect(screen.getByRole('banner')).toHaveTextContent('Differential Diagnosis'),
    );
    const predict = screen.getByRole('button', { name: 'PREDICT' });
    const remove = screen.getByRole('button', { name: 'Remove the last observation' });
    expect(predict).toBeDisabled();
    expect(screen.queryAllByRole('combobox', { name: /Observation/ })).toHaveLength(0);

    await events.click(add);
    await events.click(add);
    expect(predict).toBeEnabled();
    expect(within(row(1)).getByRole('combobox', { name: /Observation/ })).toBeRequired();
    expect(within(row(1)).getByRole('spinbutton', { name: 'Weight' })).toHaveValue(1);
    await events.clear(within(row(2)).getByRole('spinbutton', { name: 'Weight' }));
    await events.type(within(row(2)).getByRole('spinbutton', { name: 'Weight' }), '3');

    await events.click(remove);
    expect(screen.queryByRole('listitem', { name: 'Observation 2' })).not.toBeInTheDocument();
    expect(within(row(1)).getByRole('spinbutton', { name: 'Weight' })).toHaveValue(1);
    await events.click(remove);
    expect(screen.queryByRole('listitem', { name: 'Observation 1' })).not.toBeInTheDocument();
    expect(predict).toBeDisabled();
    expect(remove).toBeDisabled();
  });

  it('loads options from 3 typed characters on and clears them below', async () => {
    const { events, row, fetchMock } = renderTool();
    await events.click(await screen.findByRole('button', { name: 'ADD OBSERVATION' }));
    const field = within(row(1)).getByRole('combobox', { name: /Observation/ });

    await events.type(field, 'fe');
    expect(callsOf(fetchMock)).not.toContain(OBSERVATIONS_PATH);
    expect(screen.getByText('Type at least 3 characters')).toBeInTheDocument();

    await events.type(field, 'v');
    expect(await screen.findByRole('option', { name: 'fever' })).toBeInTheDocument();
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'fever',
      'feverish feeling',
    ]);
    expect(callsOf(fetchMock)).toContain(OBSERVATIONS_PATH);
    // Observations (signs and symptoms too) and risk factors: what the differential takes.
    expect(requestsTo(fetchMock, '/concepts/_search').map((r) => r.body)).toContainEqual({
      query: 'fev',
      dataType: ['observation', 'epidemiologicalFactor'],
      limit: 20,
    });

    await events.type(field, '{Backspace}');
    await waitFor(() => expect(screen.queryAllByRole('option')).toHaveLength(0));
    expect(screen.getByText('Type at least 3 characters')).toBeInTheDocument();
  });

  it("finds an observation by a patient's words: 'tummy ache' offers abdominal pain", async () => {
    const { events, row } = renderTool();
    await events.click(await screen.findByRole('button', { name: 'ADD OBSERVATION' }));
    await events.type(within(row(1)).getByRole('combobox', { name: /Observation/ }), 'tummy ache');
    expect(await screen.findByRole('option', { name: 'abdominal pain' })).toBeInTheDocument();
  });

  it("toasts 'Service unavailable' when the observations cannot be loaded", async () => {
    const { events, row } = renderTool({
      [OBSERVATIONS_PATH]: () => errorAnswer(503, 'Service Unavailable', 'down'),
    });
    await events.click(await screen.findByRole('button', { name: 'ADD OBSERVATION' }));
    await events.type(within(row(1)).getByRole('combobox', { name: /Observation/ }), 'fev');
    expect(await screen.findByRole('alert')).toHaveTextContent('Service unavailable');
  });

  it('predicts with the chosen observations and weights (blank is 1) and shows both tables to 2 decimals', async () => {
    const { events, row, predictBodies } = renderTool();
    const add = await screen.findByRole('button', { name: 'ADD OBSERVATION' });
    await events.click(add);
    await events.type(within(row(1)).getByRole('combobox', { name: /Observation/ }), 'fev');
    await events.click(await screen.findByRole('option', { name: 'fever' }));
    await events.click(add);
    await events.type(within(row(2)).getByRole('combobox', { name: /Observation/ }), 'right');
    await events.click(await screen.findByRole('option', { name: 'right lower abdominal pain' }));
    await events.clear(within(row(2)).getByRole('spinbutton', { name: 'Weight' }));
    await events.click(add);
    await events.type(within(row(3)).getByRole('combobox', { name: /Observation/ }), 'abd');
    await events.click(await screen.findByRole('option', { name: 'abdominal pain' }));
    await events.clear(within(row(3)).getByRole('spinbutton', { name: 'Weight' }));
    await events.type(within(row(3)).getByRole('spinbutton', { name: 'Weight' }), '2.5');

    await events.click(screen.getByRole('button', { name: 'PREDICT' }));

    const prediction = await screen.findByRole('table', {
      name: 'Differential Diagnosis Prediction',
    });
    expect(predictBodies()).toEqual([
      {
        observations: [
          { observation: 'fever', weight: 1 },
          { observation: 'right lower abdominal pain', weight: 1 },
          { observation: 'abdominal pain', weight: 2.5 },
        ],
      },
    ]);
    const rows = within(prediction)
      .getAllByRole('row')
      .map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Condition', 'Likelihood', 'Associated Observations'],
      // An emergent condition is marked (issue 20 #26).
      ['appendicitis Emergent', '0.96', 'right lower abdominal pain, fever'],
      ['gastroenteritis', '0.03', 'fever'],
    ]);
    const differentiating = screen.getByRole('table', { name: 'Differentiating Observations' });
    expect(
      within(differentiating)
        .getAllByRole('row')
        .map((tr) => tr.textContent),
    ).toEqual(['ObservationRelevance', 'abdominal tenderness0.07']);
  });

  it('lists the top 10 conditions by likelihood, then all of them on Show all (n)', () => {
    const inference = Array.from({ length: 12 }, (_, i) => ({
      condition: `condition ${i}`,
      conditionId: `LD:c${i}`,
      probability: i / 100,
      associatedObservations: [{ observation: 'fever', observationId: 'LD:fever', weight: 1 }],
    }));
    render(<PredictionTables prediction={{ ...PREDICTION, inference, acuity: undefined }} />);
    const table = screen.getByRole('table', { name: 'Differential Diagnosis Prediction' });
    const names = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((tr) => tr.querySelector('td')?.textContent);
    expect(names()).toEqual(Array.from({ length: 10 }, (_, i) => `condition ${11 - i}`));
    expect(within(table).getAllByRole('progressbar')).toHaveLength(10);
    fireEvent.click(screen.getByRole('button', { name: 'Show all (12)' }));
    expect(names()).toHaveLength(12);
    expect(screen.getByRole('button', { name: 'Show the top 10' })).toBeInTheDocument();
  });

  it('asks for an observation on a row without one instead of predicting', async () => {
    const { events, predictBodies } = renderTool();
    await events.click(await screen.findByRole('button', { name: 'ADD OBSERVATION' }));
    await events.click(screen.getByRole('button', { name: 'PREDICT' }));
    expect(await screen.findByText('Choose an observation')).toBeInTheDocument();
    expect(predictBodies()).toEqual([]);
  });

  it('marks a weight outside 0 to 100 and predicts nothing until it is fixed', async () => {
    const { events, row, predictBodies } = renderTool();
    await events.click(await screen.findByRole('button', { name: 'ADD OBSERVATION' }));
    await events.type(within(row(1)).getByRole('combobox', { name: /Observation/ }), 'fev');
    await events.click(await screen.findByRole('option', { name: 'fever' }));
    const weight = within(row(1)).getByRole('spinbutton', { name: 'Weight' });
    await events.clear(weight);
    await events.type(weight, '-2');
    expect(within(row(1)).getByText('A number from 0 to 100')).toBeInTheDocument();
    expect(weight).toHaveAttribute('aria-invalid', 'true');
    await events.click(screen.getByRole('button', { name: 'PREDICT' }));
    expect(predictBodies()).toEqual([]);

    await events.clear(weight);
    await events.type(weight, '250');
    expect(within(row(1)).getByText('A number from 0 to 100')).toBeInTheDocument();
    await events.clear(weight);
    await events.type(weight, '0.5');
    expect(within(row(1)).queryByText('A number from 0 to 100')).not.toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'PREDICT' }));
    await screen.findByRole('table', { name: 'Differential Diagnosis Prediction' });
    expect(predictBodies()).toEqual([{ observations: [{ observation: 'fever', weight: 0.5 }] }]);
  });

  it("shows the server's reason for a refused prediction, and no stale tables", async () => {
    let refuse = false;
    const { events, row } = renderTool({
      [PREDICT_PATH]: () =>
        refuse
          ? errorAnswer(
              400,
              'Bad Request',
              'Invalid body: body.observations.0.observation must not be empty',
            )
          : json(200, PREDICTION),
    });
    await events.click(await screen.findByRole('button', { name: 'ADD OBSERVATION' }));
    await events.type(within(row(1)).getByRole('combobox', { name: /Observation/ }), 'fev');
    await events.click(await screen.findByRole('option', { name: 'fever' }));
    await events.click(screen.getByRole('button', { name: 'PREDICT' }));
    await screen.findByRole('table', { name: 'Differential Diagnosis Prediction' });

    refuse = true;
    await events.click(screen.getByRole('button', { name: 'PREDICT' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Bad Request - Invalid body: body.observations.0.observation must not be empty',
    );
    expect(
      screen.queryByRole('table', { name: 'Differential Diagnosis Prediction' }),
    ).not.toBeInTheDocument();
  });

  it("toasts 'Clinical Inference service unavailable' when the prediction fails", async () => {
    const { events, row } = renderTool({
      [PREDICT_PATH]: () => errorAnswer(503, 'Service Unavailable', 'down'),
    });
    await events.click(await screen.findByRole('button', { name: 'ADD OBSERVATION' }));
    await events.type(within(row(1)).getByRole('combobox', { name: /Observation/ }), 'fev');
    await events.click(await screen.findByRole('option', { name: 'fever' }));
    await events.click(screen.getByRole('button', { name: 'PREDICT' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Clinical Inference service unavailable',
    );
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'PREDICT' })).toBeEnabled();
  });
});
