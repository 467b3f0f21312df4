import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorAnswer } from '../../../test/fake-server.ts';
import { makeTask, requestsTo, SLOW } from '../../../test/features/async-jobs/fixtures.ts';
import {
  ROUTE,
  TASK_PATH,
  expectToast,
  renderTask,
} from '../../../test/features/async-jobs/render-task.tsx';

describe('async task screens', { timeout: 20_000 }, () => {
  beforeAll(async () => {
    await import('./async-task-route.tsx');
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('rephrase: checks the phrase length and needs 2 rephrases before publishing', async () => {
    const task = makeTask('text.rephrase', 'REGISTERED', {
      data: { text: 'Do you have a fever?', context: 'Asked about fever' },
    });
    const { events, submitted, publishAndConfirm } = renderTask(task);
    expect(await screen.findByRole('heading', { name: 'Rephrase Job' }, SLOW)).toBeInTheDocument();
    expect(screen.getByText('Do you have a fever?')).toBeInTheDocument();
    const field = screen.getByRole('textbox', { name: 'Rephrase' });
    const add = screen.getByRole('button', { name: 'Add Rephrase' });

    await events.type(field, 'abc');
    await events.click(add);
    expect(screen.getByText('Must be more than 3 characters.')).toBeInTheDocument();

    await events.clear(field);
    await events.type(field, 'Are you feverish?');
    await events.click(add);
    await events.click(screen.getByRole('button', { name: 'Publish' }));
    await expectToast('Add at least 2 rephrases.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await events.type(field, 'Is your temperature high?{Enter}');
    await publishAndConfirm();
    expect(submitted()).toEqual([
      {
        id: 'task-1',
        data: { rephrases: ['Are you feverish?', 'Is your temperature high?'] },
      },
    ]);
  });

  it('rephrase approval: strikes out rephrases and needs an intent', async () => {
    const task = makeTask('text.rephrase', 'PENDING_APPROVAL', {
      data: { text: 'Do you have a fever?', rephrases: ['Feverish?', 'Hot lately?'] },
    });
    const { events, submitted, publishAndConfirm } = renderTask(task);
    expect(
      await screen.findByRole('heading', { name: 'Rephrase approval' }, SLOW),
    ).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Remove Hot lately?' }));
    expect(screen.getByRole('button', { name: 'Keep Hot lately?' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await events.click(screen.getByRole('button', { name: 'Publish' }));
    await expectToast('Please choose an intent.');

    const intents = screen.getByRole('radiogroup', { name: 'Intent' });
    expect(within(intents).getAllByRole('radio')).toHaveLength(10);
    await events.click(within(intents).getByRole('radio', { name: "Workers' compensation" }));
    await publishAndConfirm();
    expect(submitted()).toEqual([
      {
        id: 'task-1',
        data: {
          rephrases_removed: ['Hot lately?'],
          rephrases: ['Feverish?'],
          intents: ['workers_comp'],
        },
      },
    ]);
  });

  it('complications: needs a complication text and at least one, with its concept', async () => {
    const task = makeTask('condition.complications', 'REGISTERED', {
      data: { condition: 'Pneumonia', reference: 'https://example.com', notes: '' },
      condition: { complications: [{ id: 'LD:pneumonia~sepsis', name: 'sepsis' }] },
    });
    const { events, submitted, publishAndConfirm } = renderTask(task);
    expect(
      await screen.findByRole('heading', { name: 'Condition Complication Job' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByText('Pneumonia')).toBeInTheDocument();
    // What the condition already has shows, so nobody adds it twice.
    expect(screen.getByRole('region', { name: 'Known complications' })).toHaveTextContent('sepsis');
    await events.click(screen.getByRole('button', { name: 'Add Complication' }));
    expect(screen.getByText('Please enter complication.')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Publish' }));
    await expectToast('Add at least 1 complication.');

    const field = screen.getByRole('combobox', { name: 'Complication' });
    await events.type(field, 'sep');
    await events.click(await screen.findByRole('option', { name: 'Sepsis' }));
    await events.click(screen.getByRole('button', { name: 'Add Complication' }));
    await events.type(field, 'Lung abscess');
    await events.click(screen.getByRole('button', { name: 'Add Complication' }));
    expect(screen.getByRole('button', { name: 'Delete Lung abscess' })).toBeInTheDocument();
    await publishAndConfirm();
    expect(submitted()).toEqual([
      {
        id: 'task-1',
        data: {
          complications: [
            { complication: 'Sepsis', complicationCUI: 'LD:sepsis' },
            { complication: 'Lung abscess', complicationCUI: null },
          ],
        },
      },
    ]);
  });

  it('complications approval: strikes existing ones through and adds new ones', async () => {
    const task = makeTask('condition.complications', 'PENDING_INTERNAL_APPROVAL', {
      data: { condition: 'Pneumonia' },
      condition: {
        complications: [
          { id: 'c1', name: 'Sepsis', cui: null },
          { id: 'c2', name: 'Pleural effusion', cui: null },
        ],
      },
    });
    const { events, submitted, publishAndConfirm } = renderTask(task);
    expect(
      await screen.findByRole('heading', { name: 'Complications Approval Job' }, SLOW),
    ).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Remove Sepsis' }));
    // Striking out every complication leaves the condition none: refused before anything is sent.
    await events.click(screen.getByRole('button', { name: 'Remove Pleural effusion' }));
    await events.click(screen.getByRole('button', { name: 'Publish' }));
    await expectToast('Keep or add at least 1 complication.');
    expect(screen.queryByRole('dialog', { name: 'Publish' })).not.toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Keep Pleural effusion' }));
    await events.type(screen.getByRole('combobox', { name: 'Complication' }), 'Empyema');
    await events.click(screen.getByRole('button', { name: 'Add Complication' }));
    await publishAndConfirm();
    expect(submitted()).toEqual([
      {
        id: 'task-1',
        data: {
          complications_removed: ['c1'],
          complications_restored: [],
          complications: [{ complication: 'Empyema', complicationCUI: null }],
        },
      },
    ]);
  });

  it('questions: needs question text and at least 2 questions', async () => {
    const task = makeTask('observation.questions', 'REGISTERED', {
      data: { observation: 'cough' },
    });
    const { events, submitted, publishAndConfirm } = renderTask(task);
    expect(
      await screen.findByRole('heading', { name: 'Observation Question Job' }, SLOW),
    ).toBeInTheDocument();
    const field = screen.getByRole('textbox', { name: 'Question' });
    await events.click(screen.getByRole('button', { name: 'Add Question' }));
    expect(screen.getByText('Please add a question.')).toBeInTheDocument();
    await events.type(field, 'Do you cough?{Enter}');
    await events.click(screen.getByRole('button', { name: 'Publish' }));
    await expectToast('Add at least 2 questions.');
    await events.type(field, 'Is the cough dry?{Enter}');
    await publishAndConfirm();
    expect(submitted()).toEqual([
      {
        id: 'task-1',
        data: { questions: [{ text: 'Do you cough?' }, { text: 'Is the cough dry?' }] },
      },
    ]);
  });

  it('questions approval: strikes questions through and adds new ones', async () => {
    const task = makeTask('observation.questions', 'PENDING_EXTERNAL_APPROVAL', {
      data: {
        observation: 'cough',
        questions: [
          { id: 'q1', text: 'Do you cough?' },
          { id: 'q2', text: 'Coughing?' },
        ],
      },
    });
    const { events, submitted, publishAndConfirm } = renderTask(task);
    expect(
      await screen.findByRole('heading', { name: 'Questions Approval Job' }, SLOW),
    ).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Remove Coughing?' }));
    await events.type(
      screen.getByRole('textbox', { name: 'Question' }),
      'When did it start?{Enter}',
    );
    await publishAndConfirm();
    expect(submitted()).toEqual([
      {
        id: 'task-1',
        data: {
          questions_removed: ['q2'],
          questions_restored: [],
          questions: [{ text: 'When did it start?' }],
        },
      },
    ]);
  });

  it('questions approval: one struck by an earlier step starts struck and can be kept', async () => {
    const task = makeTask('observation.questions', 'PENDING_EXTERNAL_APPROVAL', {
      data: {
        observation: 'cough',
        questions: [
          { id: 'q1', text: 'Do you cough?' },
          { id: 'q2', text: 'Coughing?', removed: true },
          { id: 'q3', text: 'Since when?', removed: true },
        ],
      },
    });
    const { events, submitted, publishAndConfirm } = renderTask(task);
    expect(
      await screen.findByRole('heading', { name: 'Questions Approval Job' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Keep Coughing?' })).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Keep Since when?' }));
    await publishAndConfirm();
    expect(submitted()).toEqual([
      {
        id: 'task-1',
        data: { questions_removed: [], questions_restored: ['q3'], questions: [] },
      },
    ]);
  });

  it('medications approval: toggles removal, needs text to add, shows the reference', async () => {
    const task = makeTask('condition.medications', 'PENDING_APPROVAL', {
      data: { condition: 'Migraine', reference: 'https://medlineplus.gov/search/?query=Migraine' },
      condition: {
        name: 'Migraine',
        medications: [
          { id: 'm1', text: 'Ibuprofen' },
          { id: 'm2', text: 'Sumatriptan' },
        ],
      },
    });
    const { events, submitted, publishAndConfirm } = renderTask(task);
    expect(
      await screen.findByRole('heading', { name: 'Medications Approval' }, SLOW),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'https://medlineplus.gov/search/?query=Migraine' }),
    ).toHaveAttribute('href', 'https://medlineplus.gov/search/?query=Migraine');

    // A toggle flips between marked and unmarked.
    await events.click(screen.getByRole('button', { name: 'Remove Ibuprofen' }));
    await events.click(screen.getByRole('button', { name: 'Keep Ibuprofen' }));
    await events.click(screen.getByRole('button', { name: 'Remove Sumatriptan' }));

    await events.click(screen.getByRole('button', { name: 'Add Medication' }));
    expect(screen.getByText('Please add a medication.')).toBeInTheDocument();
    // The box takes up to 8 rows: every line becomes a medication of its own.
    const box = screen.getByRole('textbox', { name: 'Medication' });
    await events.type(box, 'Paracetamol{Enter}{Enter}  Codeine  ');
    expect(screen.getByText('One medication per line.')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Add Medication' }));
    expect(screen.getByRole('button', { name: 'Delete Paracetamol' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Codeine' })).toBeInTheDocument();
    expect(box).toHaveValue('');
    await publishAndConfirm();
    expect(submitted()).toEqual([
      {
        id: 'task-1',
        data: {
          medications_removed: ['m2'],
          medications: [{ text: 'Paracetamol' }, { text: 'Codeine' }],
        },
      },
    ]);
  });

  it("symptoms approval: 'Please add a symptom.' and the submit body", async () => {
    const task = makeTask('condition.symptoms', 'PENDING_APPROVAL', {
      data: { condition: 'Migraine' },
      condition: { symptoms: [{ id: 's1', text: 'headache' }] },
    });
    const { events, submitted, publishAndConfirm } = renderTask(task);
    expect(
      await screen.findByRole('heading', { name: 'Symptoms Approval' }, SLOW),
    ).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Add Symptom' }));
    expect(screen.getByText('Please add a symptom.')).toBeInTheDocument();
    await publishAndConfirm();
    expect(submitted()).toEqual([{ id: 'task-1', data: { symptoms_removed: [], symptoms: [] } }]);
  });

  it('discard needs a note, then sends it as the reason', async () => {
    const task = makeTask('observation.questions', 'REGISTERED', {
      data: { observation: 'cough' },
    });
    const { events, fetchMock, location } = renderTask(task);
    await events.click(await screen.findByRole('button', { name: 'Discard' }));
    const dialog = screen.getByRole('dialog', { name: 'Discard this job' });
    await events.click(within(dialog).getByRole('button', { name: 'Discard' }));
    expect(within(dialog).getByText('Please add a note.')).toBeInTheDocument();
    await events.type(within(dialog).getByRole('textbox', { name: /Note/ }), 'Duplicate task');
    await events.click(within(dialog).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/jobs\/async$/));
    const discards = requestsTo(fetchMock, '/tasks/task-1').filter((r) => r.method === 'DELETE');
    expect(discards.map((r) => r.url.searchParams.get('reason'))).toEqual(['Duplicate task']);
  });

  it('shows a refused submit as a toast and stays on the task', async () => {
    const task = makeTask('condition.symptoms', 'PENDING_APPROVAL', { data: {}, condition: {} });
    const { location, publish } = renderTask(task, {
      [`POST ${TASK_PATH}`]: () => errorAnswer(409, 'Conflict', 'You do not hold task task-1.'),
    });
    await screen.findByRole('heading', { name: 'Symptoms Approval' }, SLOW);
    await publish();
    await expectToast('Conflict - You do not hold task task-1.');
    expect(location()).toHaveTextContent(ROUTE);
  });

  it("answers a second Publish while the first is sent with 'Still processing last request.'", async () => {
    const task = makeTask('condition.symptoms', 'PENDING_APPROVAL', { data: {}, condition: {} });
    const { events, publish } = renderTask(task, {
      [`POST ${TASK_PATH}`]: () => new Promise<Response>(() => undefined),
    });
    await screen.findByRole('heading', { name: 'Symptoms Approval' }, SLOW);
    await publish();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await events.click(screen.getByRole('button', { name: 'Publish' }));
    await expectToast('Still processing last request.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('falls back for a task type without a screen', async () => {
    // A pipeline the served pipelines do not list, so no step names a screen.
    renderTask(
      makeTask('text.annotation', 'REGISTERED', {
        jobType: 'hitl.jobs.async.text.poem',
        lock: { pipeline: 12, step: 'write_poem' },
      }),
    );
    expect(
      await screen.findByText('No job found for hitl.jobs.async.text.poem'),
    ).toBeInTheDocument();
  });

  it('shows a failed load and returns to the dashboard after 5 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { location } = renderTask(makeTask('text.rephrase', 'REGISTERED'), {
      [`GET ${TASK_PATH}`]: () => errorAnswer(404, 'Not Found', 'Task task-1 is in step other.'),
    });
    await expectToast('Not Found - Task task-1 is in step other.');
    await act(() => vi.advanceTimersByTimeAsync(4_000));
    expect(location()).toHaveTextContent(ROUTE);
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/jobs\/async$/));
  });
});
