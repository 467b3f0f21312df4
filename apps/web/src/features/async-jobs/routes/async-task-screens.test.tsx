import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { select } from '../../../test/panel-test-kit.tsx';
import { callsOf, errorAnswer, json } from '../../../test/fake-server.ts';
import { makeTask, SLOW } from '../../../test/features/async-jobs/fixtures.ts';
import {
  TASK_PATH,
  choose,
  expectToast,
  renderTask,
} from '../../../test/features/async-jobs/render-task.tsx';

const COMPLAINT = "I've had a cough and a fever for three days.";
const entity = (id: string, extract: string, category: string, extra: object = {}) => {
  const start = COMPLAINT.indexOf(extract);
  return { id, start, end: start + extract.length, extract, category, ...extra };
};

describe(
  'async task screens: annotation, normalisation, observations, locations, differential, labelling',
  { timeout: 30_000 },
  () => {
    beforeAll(async () => {
      await import('./async-task-route.tsx');
    });
    afterEach(() => {
      window.getSelection()?.removeAllRanges();
    });

    it("annotation: 'Asked: ' context, the 8 categories, a concept picker only for four, delete confirms", async () => {
      const task = makeTask('text.annotation', 'REGISTERED', {
        data: { text: COMPLAINT, context: 'What brings you in today?' },
      });
      const { events, submitted, publishAndConfirm } = renderTask(task);
      expect(
        await screen.findByRole('heading', { name: 'Annotation Job' }, SLOW),
      ).toBeInTheDocument();
      expect(screen.getByText('Annotate the following information.')).toBeInTheDocument();
      expect(screen.getByText('Asked: What brings you in today?')).toBeInTheDocument();

      // Onset has no concept picker: the annotation is added at once.
      select('three days');
      const categories = screen.getByRole('group', { name: 'Category' });
      expect(
        within(categories)
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual([
        '1Symptom',
        '2Associated symptom',
        '3Onset',
        '4Onset context',
        '5Diagnosis',
        '6Medication',
        '7Anatomical location',
        '8Quality',
      ]);
      // Digits pick the categories, as in the federated menu (issue 20 point 21): 3 is Onset.
      expect(within(categories).getByRole('button', { name: 'Onset' })).toHaveAttribute(
        'aria-keyshortcuts',
        '3',
      );
      await events.keyboard('3');
      expect(screen.queryByRole('combobox', { name: 'Concept' })).not.toBeInTheDocument();
      const table = screen.getByRole('table', { name: 'Annotations' });
      expect(within(table).getByText('three days')).toBeInTheDocument();

      // Symptom gets the concept picker, searching the selected text.
      select('cough');
      await events.click(screen.getByRole('button', { name: 'Symptom' }));
      const picker = screen.getByRole('combobox', { name: 'Concept' });
      expect(picker).toHaveValue('cough');
      await events.click(picker);
      await events.click(await screen.findByRole('option', { name: /^cough/ }));
      await events.click(screen.getByRole('button', { name: 'Add annotation' }));

      // Deleting asks first.
      await events.click(within(table).getByRole('button', { name: 'Delete three days' }));
      const dialog = screen.getByRole('dialog', { name: 'Delete annotation' });
      expect(dialog).toHaveTextContent('Are you sure you want to delete this annotation?');
      await events.click(within(dialog).getByRole('button', { name: 'Delete' }));
      await waitFor(() => expect(dialog).not.toBeInTheDocument());
      expect(within(table).queryByText('three days')).not.toBeInTheDocument();

      await publishAndConfirm();
      expect(submitted()).toEqual([
        {
          id: 'task-1',
          data: {
            annotations: {
              entities: [
                expect.objectContaining({
                  start: COMPLAINT.indexOf('cough'),
                  end: COMPLAINT.indexOf('cough') + 5,
                  extract: 'cough',
                  category: 'Symptom',
                  conceptId: 'LD:cough',
                  conceptName: 'cough',
                }),
              ],
            },
          },
        },
      ]);
    });

    it('annotation approval: approves, modifies, deletes and adds entities', async () => {
      const task = makeTask('text.annotation', 'PENDING_APPROVAL', {
        data: { text: COMPLAINT, context: 'Asked: What brings you in today?' },
        annotations: {
          entities: [
            entity('e1', 'cough', 'Symptom', { conceptId: 'LD:cough', conceptName: 'cough' }),
            entity('e2', 'fever', 'Symptom'),
            entity('e3', 'three days', 'Quality'),
          ],
        },
      });
      const { events, submitted, publishAndConfirm } = renderTask(task);
      expect(
        await screen.findByRole('heading', { name: 'Annotation Approval Job' }, SLOW),
      ).toBeInTheDocument();
      expect(screen.getByText('Asked: What brings you in today?')).toBeInTheDocument();
      await events.click(screen.getByRole('checkbox', { name: 'Approve cough' }));
      await choose(events, 'Category of fever', 'Associated symptom');
      await events.click(screen.getByRole('button', { name: 'Delete three days' }));
      const dialog = screen.getByRole('dialog', { name: 'Delete annotation' });
      await events.click(within(dialog).getByRole('button', { name: 'Delete' }));
      await waitFor(() => expect(dialog).not.toBeInTheDocument());
      select('three days');
      await events.click(screen.getByRole('button', { name: 'Onset' }));
      await publishAndConfirm();
      const [body] = submitted() as [{ data: Record<string, { entities: unknown[] }> }];
      expect(body.data.approved?.entities).toEqual([
        expect.objectContaining({ id: 'e1', checked: true }),
      ]);
      expect(body.data.modified?.entities).toEqual([
        expect.objectContaining({ id: 'e2', category: 'Associated symptom', modified: true }),
      ]);
      expect(body.data.deleted?.entities).toEqual([expect.objectContaining({ id: 'e3' })]);
      expect(body.data.added?.entities).toEqual([
        expect.objectContaining({ extract: 'three days', category: 'Onset', added: true }),
      ]);
    });

    it('normalisation: ready only when every entity has a concept or is unable to normalise', async () => {
      const task = makeTask('entity.normalisation', 'REGISTERED', {
        data: { text: COMPLAINT },
        annotations: {
          entities: [entity('e1', 'cough', 'Symptom'), entity('e2', 'fever', 'Symptom')],
        },
      });
      const { events, submitted, publishAndConfirm } = renderTask(task);
      expect(
        await screen.findByRole('heading', { name: 'Normalisation Job' }, SLOW),
      ).toBeInTheDocument();
      const publish = screen.getByRole('button', { name: 'Publish' });
      expect(publish).toBeDisabled();
      // The entity's words fill the search, but nothing is chosen yet: each field says so.
      expect(screen.getAllByText('No concept chosen: pick one from the list.')).toHaveLength(2);
      await events.click(screen.getByRole('combobox', { name: 'Concept of cough' }));
      await events.click(await screen.findByRole('option', { name: /^cough/ }));
      expect(publish).toBeDisabled();
      expect(screen.getAllByText('No concept chosen: pick one from the list.')).toHaveLength(1);
      await events.click(screen.getByRole('checkbox', { name: 'Unable to normalise fever' }));
      expect(publish).toBeEnabled();
      await publishAndConfirm();
      expect(submitted()).toEqual([
        {
          id: 'task-1',
          data: {
            normalised: {
              entities: [
                { id: 'e1', conceptId: 'LD:cough', conceptName: 'cough', state: 'NORMALISED' },
                {
                  id: 'e2',
                  conceptId: null,
                  conceptName: null,
                  state: 'NORMALISED',
                  unableToNormalise: true,
                },
              ],
            },
          },
        },
      ]);
    });

    it('normalisation approval: entities not NORMALISED start checked, and it is ready at once', async () => {
      const task = makeTask('entity.normalisation', 'PENDING_APPROVAL', {
        data: { text: COMPLAINT },
        annotations: {
          entities: [
            entity('e1', 'cough', 'Symptom', {
              conceptId: 'LD:cough',
              conceptName: 'cough',
              state: 'NORMALISED',
            }),
            entity('e2', 'fever', 'Symptom'),
          ],
        },
      });
      const { submitted, publishAndConfirm } = renderTask(task);
      await screen.findByRole('heading', { name: 'Normalisation Job' }, SLOW);
      expect(screen.getByRole('checkbox', { name: 'Checked cough' })).not.toBeChecked();
      expect(screen.getByRole('checkbox', { name: 'Checked fever' })).toBeChecked();
      expect(screen.getByRole('button', { name: 'Publish' })).toBeEnabled();
      await publishAndConfirm();
      expect(submitted()).toEqual([
        {
          id: 'task-1',
          data: {
            normalised: {
              entities: [
                { id: 'e1', conceptId: 'LD:cough', conceptName: 'cough', state: 'NORMALISED' },
                { id: 'e2', conceptId: null, conceptName: null, state: 'APPROVED' },
              ],
            },
          },
        },
      ]);
    });

    it("observations: needs both observation and class, searches the class's observations, at least 1", async () => {
      const task = makeTask('condition.observations', 'REGISTERED', {
        data: { condition: 'Pneumonia', reference: 'NICE CKS' },
        condition: { observations: [{ id: 'r1', name: 'cough' }] },
      });
      const { events, fetchMock, submitted, publishAndConfirm } = renderTask(task);
      expect(
        await screen.findByRole('heading', { name: 'Condition Observation Job' }, SLOW),
      ).toBeInTheDocument();
      expect(screen.getByText('NICE CKS')).toBeInTheDocument();
      await events.click(screen.getByRole('button', { name: 'Add Observation' }));
      expect(
        screen.getByText('Please complete both observation and observation class.'),
      ).toBeInTheDocument();
      await events.click(screen.getByRole('button', { name: 'Publish' }));
      await expectToast('Add at least 1 observation.');

      await choose(events, 'Observation class', 'Symptom');
      const field = screen.getByRole('combobox', { name: 'Observation' });
      await events.type(field, 'fev');
      await events.click(await screen.findByRole('option', { name: 'fever' }));
      await events.click(screen.getByRole('button', { name: 'Add Observation' }));
      await events.type(field, 'rusty phlegm');
      await events.click(screen.getByRole('button', { name: 'Add Observation' }));
      expect(callsOf(fetchMock)).toContain('GET /internal/intelligence/ontology/concepts/_classes');
      await publishAndConfirm();
      expect(submitted()).toEqual([
        {
          id: 'task-1',
          data: {
            observations: [
              { observation: 'fever', observationCUI: 'LD:fever', observationClass: 'symptom' },
              { observation: 'rusty phlegm', observationCUI: null, observationClass: 'symptom' },
            ],
          },
        },
      ]);
    });

    it("observations: a failed class list says 'Error loading {class} classes'", async () => {
      const task = makeTask('condition.observations', 'REGISTERED', { data: { condition: 'Flu' } });
      const { events } = renderTask(task, {
        'GET /internal/intelligence/ontology/concepts/_classes': () =>
          errorAnswer(503, 'Service Unavailable', 'down'),
      });
      await screen.findByRole('heading', { name: 'Condition Observation Job' }, SLOW);
      await choose(events, 'Observation class', 'Observation');
      await expectToast('Error loading observation classes');
    });

    it('relationships: correlation and weight per observation; at least 1, none without a name', async () => {
      const task = makeTask('condition.observations', 'OBSERVATIONS_ADDED', {
        data: { condition: 'Pneumonia' },
        condition: {
          observations: [
            {
              id: 'r1',
              name: 'fever',
              cui: null,
              observationClass: 'symptom',
              correlation: 'Positive',
              weight: 'Medium',
            },
            { id: 'r2', name: '', observationClass: 'sign' },
          ],
        },
      });
      const { events, submitted, publishAndConfirm } = renderTask(task);
      expect(
        await screen.findByRole('heading', { name: 'Observation Relationships Job' }, SLOW),
      ).toBeInTheDocument();
      await events.click(screen.getByRole('button', { name: 'Publish' }));
      await expectToast('Every observation needs a name.');
      await events.type(screen.getByRole('textbox', { name: 'Name' }), 'crackles');
      await choose(events, 'Weight of fever', 'High');
      await choose(events, 'Correlation of crackles', 'Negative');
      await publishAndConfirm();
      expect(submitted()).toEqual([
        {
          id: 'task-1',
          data: {
            removedObservations: [],
            observations: [
              {
                id: 'r1',
                name: 'fever',
                cui: null,
                observationClass: 'symptom',
                correlation: 'Positive',
                weight: 'High',
              },
              {
                id: 'r2',
                name: 'crackles',
                cui: null,
                observationClass: 'sign',
                correlation: 'Negative',
                weight: 'Medium',
              },
            ],
          },
        },
      ]);
    });

    it('relationships approval: strikes observations through, adds only signs or symptoms', async () => {
      const task = makeTask('condition.observations', 'PENDING_INTERNAL_APPROVAL', {
        data: { condition: 'Pneumonia' },
        condition: {
          observations: [
            { id: 'r1', name: 'fever', observationClass: 'symptom', correlation: 'Positive' },
            { id: 'r2', name: 'cough', observationClass: 'symptom', weight: 'High' },
          ],
        },
      });
      const { events, submitted, publishAndConfirm } = renderTask(task);
      expect(
        await screen.findByRole('heading', { name: 'Relationships Approval Job' }, SLOW),
      ).toBeInTheDocument();
      await events.click(screen.getByRole('combobox', { name: 'Observation class' }));
      const classes = within(await screen.findByRole('listbox')).getAllByRole('option');
      expect(classes.map((o) => o.textContent)).toEqual(['Sign', 'Symptom']);
      await events.click(classes[1] as HTMLElement);

      // Striking every observation leaves nothing to publish.
      await events.click(screen.getByRole('button', { name: 'Remove fever' }));
      await events.click(screen.getByRole('button', { name: 'Remove cough' }));
      await events.click(screen.getByRole('button', { name: 'Publish' }));
      await expectToast('Add at least 1 observation.');
      await events.click(screen.getByRole('button', { name: 'Keep cough' }));

      await events.type(screen.getByRole('combobox', { name: 'Observation' }), 'night');
      await events.click(await screen.findByRole('option', { name: 'night sweats' }));
      await events.click(screen.getByRole('button', { name: 'Add Observation' }));
      await publishAndConfirm();
      expect(submitted()).toEqual([
        {
          id: 'task-1',
          data: {
            removedObservations: ['r1'],
            observations: [
              {
                id: 'r2',
                name: 'cough',
                cui: null,
                observationClass: 'symptom',
                correlation: 'Positive',
                weight: 'High',
              },
              {
                id: expect.any(String),
                name: 'night sweats',
                cui: 'LD:night-sweats',
                observationClass: 'symptom',
                correlation: 'Positive',
                weight: 'Medium',
              },
            ],
          },
        },
      ]);
    });

    it('relationships approval: rows struck by an earlier step start struck and can be kept', async () => {
      const task = makeTask('condition.observations', 'PENDING_EXTERNAL_APPROVAL', {
        data: { condition: 'Pneumonia' },
        condition: {
          observations: [
            { id: 'r1', name: 'fever', observationClass: 'symptom', removed: true },
            { id: 'r2', name: 'cough', observationClass: 'symptom', removed: true },
            { id: 'r3', name: 'chills', observationClass: 'symptom' },
          ],
        },
      });
      const { events, submitted, publishAndConfirm } = renderTask(task);
      expect(
        await screen.findByRole('heading', { name: 'Relationships Approval Job' }, SLOW),
      ).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Keep fever' })).toBeInTheDocument();
      await events.click(screen.getByRole('button', { name: 'Keep cough' }));
      await publishAndConfirm();
      const sent = (submitted()[0] as { data: unknown }).data as {
        removedObservations: string[];
        observations: { id: string }[];
      };
      expect(sent.removedObservations).toEqual(['r1']);
      expect(sent.observations.map((o) => o.id)).toEqual(['r2', 'r3']);
    });

    it('location review: three multi-selects preselected from the task, with free text', async () => {
      const task = makeTask('clinical.location', 'PENDING_EXTERNAL_REVIEW', {
        data: { condition: 'Pneumonia' },
        locations: {
          pathologicalProcesses: [{ display: 'infection', bid: 'LD:process/infection' }],
          bodySystems: [
            { coding: { display: 'respiratory system' }, bid: 'LD:system/respiratory' },
          ],
          anatomicalLocations: [],
        },
      });
      const { events, submitted, publishAndConfirm } = renderTask(task);
      expect(
        await screen.findByRole('heading', { name: 'Location Review' }, SLOW),
      ).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'infection' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'respiratory system' })).toBeInTheDocument();

      const processes = screen.getByRole('combobox', { name: 'Pathological Process' });
      await events.click(processes);
      await events.click(await screen.findByRole('option', { name: 'inflammation' }));
      const locations = screen.getByRole('combobox', { name: 'Anatomical Location' });
      await events.type(locations, 'left lower lobe{Enter}');
      // Not a known location: one question, then it shows as a new term (issue 20 point 20).
      const question = await screen.findByRole('dialog', { name: 'Add a new term?' });
      expect(question).toHaveTextContent('“left lower lobe” is not a known concept.');
      await events.click(within(question).getByRole('button', { name: 'Add new term' }));
      expect(
        await screen.findByRole('button', { name: 'left lower lobe (new term)' }),
      ).toBeInTheDocument();
      await events.click(locations);
      await events.click(await screen.findByRole('option', { name: 'lung' }));
      await publishAndConfirm();
      expect(submitted()).toEqual([
        {
          id: 'task-1',
          data: {
            locations: {
              pathologicalProcesses: [
                { display: 'infection', bid: 'LD:process/infection' },
                { display: 'inflammation', bid: 'LD:process/inflammation' },
              ],
              bodySystems: [{ display: 'respiratory system', bid: 'LD:system/respiratory' }],
              anatomicalLocations: [
                { display: 'left lower lobe', bid: null },
                { display: 'lung', bid: 'LD:location/lung' },
              ],
            },
          },
        },
      ]);
    });

    it('location: the default screen, and Discard confirms with a note', async () => {
      const task = makeTask('clinical.location', 'REGISTERED', { data: { condition: 'Gout' } });
      const { events } = renderTask(task);
      expect(
        await screen.findByRole('heading', { name: 'Location Job' }, SLOW),
      ).toBeInTheDocument();
      await events.click(screen.getByRole('button', { name: 'Discard' }));
      expect(screen.getByRole('dialog', { name: 'Discard this job' })).toBeInTheDocument();
    });

    it("differential: Q&A transcript, '{age} year old {gender}', a ranked multi-select with free text", async () => {
      const task = makeTask('clinical.differential', 'REGISTERED', {
        data: {
          age: 34,
          gender: 'female',
          conversation: [
            { question: 'Do you have a cough?', text: 'Yes, a wet one.' },
            { question: 'Any fever?', text: 'Since yesterday.' },
          ],
        },
      });
      const { events, submitted, publishAndConfirm } = renderTask(task);
      expect(
        await screen.findByRole('heading', { name: 'Differential Diagnosis Job' }, SLOW),
      ).toBeInTheDocument();
      expect(screen.getByText('34 year old female')).toBeInTheDocument();
      const transcript = screen.getByRole('list', { name: 'Conversation' });
      expect(within(transcript).getByText('Q: Do you have a cough?')).toBeInTheDocument();
      expect(within(transcript).getByText('A: Yes, a wet one.')).toBeInTheDocument();
      expect(screen.getByText(/five or more diagnoses, ordered from the most/)).toBeInTheDocument();

      await events.click(screen.getByRole('button', { name: 'Publish' }));
      await expectToast('Choose at least 1 diagnosis.');
      const diagnoses = screen.getByRole('combobox', { name: 'Diagnoses' });
      await events.click(diagnoses);
      await events.click(await screen.findByRole('option', { name: 'pneumonia' }));
      await events.click(diagnoses);
      await events.click(await screen.findByRole('option', { name: 'influenza' }));
      await events.type(diagnoses, 'Legionnaires disease{Enter}');
      // Not a known condition: it is added as a new term only once the user says so.
      const question = await screen.findByRole('dialog', { name: 'Add a new term?' });
      await events.click(within(question).getByRole('button', { name: 'Add new term' }));
      await events.click(await screen.findByRole('button', { name: 'Move influenza up' }));
      const ranking = screen.getByRole('list', { name: 'Ranking' });
      expect(
        within(ranking)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual([
        expect.stringContaining('1. influenza'),
        expect.stringContaining('2. pneumonia'),
        expect.stringContaining('3. Legionnaires disease'),
      ]);
      await publishAndConfirm();
      expect(submitted()).toEqual([
        {
          id: 'task-1',
          data: {
            differential: [
              { name: 'influenza', code: 'LD:influenza', rank: 1 },
              { name: 'pneumonia', code: 'LD:pneumonia', rank: 2 },
              { name: 'Legionnaires disease', code: 'Legionnaires disease', rank: 3 },
            ],
          },
        },
      ]);
    });

    it('differential: no age line without both age and gender', async () => {
      renderTask(makeTask('clinical.differential', 'REGISTERED', { data: { gender: 'male' } }));
      await screen.findByRole('heading', { name: 'Differential Diagnosis Job' }, SLOW);
      expect(screen.queryByText(/year old/)).not.toBeInTheDocument();
    });

    it('conversation labelling: two searchable multi-selects that search from 3 characters', async () => {
      const task = makeTask('conversation.annotation', 'REGISTERED', {
        data: { conversation: [{ question: 'What is wrong?', text: 'I keep coughing.' }] },
      });
      const { events, fetchMock, submitted, publishAndConfirm } = renderTask(task);
      expect(
        await screen.findByRole('heading', { name: 'Conversation Labelling Job' }, SLOW),
      ).toBeInTheDocument();
      expect(screen.getByText('A: I keep coughing.')).toBeInTheDocument();
      const decoded = screen.getByRole('combobox', { name: 'Decoded Observations' });
      await events.type(decoded, 'co');
      expect(callsOf(fetchMock)).not.toContain('GET /internal/async-jobs/data/concept/_query');
      await events.type(decoded, 'u');
      await events.click(await screen.findByRole('option', { name: 'cough' }));
      const extended = screen.getByRole('combobox', { name: 'Extended Observations' });
      await events.type(extended, 'fev');
      await events.click(await screen.findByRole('option', { name: 'fever' }));
      await publishAndConfirm();
      expect(submitted()).toEqual([
        {
          id: 'task-1',
          data: {
            decodedObservations: [{ conceptId: 'LD:cough', name: 'cough' }],
            extendedObservations: [{ conceptId: 'LD:fever', name: 'fever' }],
          },
        },
      ]);
    });

    it("conversation labelling: a failed search says 'Error loading observations'", async () => {
      const task = makeTask('conversation.annotation', 'REGISTERED', { data: {} });
      const { events } = renderTask(task, {
        'GET /internal/async-jobs/data/concept/_query': () => errorAnswer(500, 'Error', 'x'),
      });
      await events.type(
        await screen.findByRole('combobox', { name: 'Decoded Observations' }),
        'cou',
      );
      await expectToast('Error loading observations');
    });

    it("complications: a failed concept search says 'Error loading complications'", async () => {
      const task = makeTask('condition.complications', 'REGISTERED', {
        data: { condition: 'Pneumonia' },
      });
      const { events } = renderTask(task, {
        'GET /internal/utilities/typeahead': () => errorAnswer(500, 'Error', 'x'),
      });
      await events.type(await screen.findByRole('combobox', { name: 'Complication' }), 'sep');
      await expectToast('Error loading complications');
    });

    it('returns to the dashboard at once when the loaded task is another one (incorrect task)', async () => {
      const { location } = renderTask(makeTask('text.rephrase', 'REGISTERED'), {
        [`GET ${TASK_PATH}`]: () =>
          json(200, makeTask('text.rephrase', 'REGISTERED', { id: 'task-2' })),
      });
      await waitFor(() => expect(location()).toHaveTextContent(/^\/jobs\/async$/));
    });
  },
);
