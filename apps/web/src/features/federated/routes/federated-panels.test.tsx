import { screen, waitFor, within } from '@testing-library/react';
import { rewordStartPrompt } from '@loopdesk/workbench/reword.ts';
import {
  ANNOTATE_AGENDA_MESSAGE,
  ANNOTATE_INTENT_MESSAGE,
  SELECT_ENDORSES_DENIES_MESSAGE,
  SELECT_QUESTION_MESSAGE,
} from '@loopdesk/workbench/validation.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorAnswer, json } from '../../../test/fake-server.ts';
import { TYPEAHEAD_ERROR_MESSAGE } from '../../../workbench/api/get-typeahead.ts';
import { SELECT_CONCEPT_MESSAGE } from '../../../workbench/components/entity-normalisation-panel.tsx';
import { SELECT_PRIORITY_MESSAGE } from '../../../workbench/components/priority-panel.tsx';
import { rewordMissingMessage } from '../../../workbench/components/reword-step.tsx';
import { CONCEPT_SYSTEM } from '../../../workbench/utils/job-payloads.ts';
import {
  JOB_ID,
  holding,
  select,
  submissions,
  turn,
} from '../../../test/features/federated/federated-test-kit.tsx';

// Several user steps each: the default 5 s is tight on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const TUMMY = 'I have a tummy ache on the right side';

function complaintJob(overrides: Record<string, unknown> = {}) {
  return {
    slotSpecification: {
      code: 'current_complaint',
      short_description: 'current complaint',
      data_type: 'text',
      multiplicity: '1..1',
    },
    slot: { id: 'slot-cc', code: 'current_complaint' },
    lastTurn: turn(TUMMY),
    quinnLastTurn: { content: 'How can we help today?' },
    ...overrides,
  };
}

describe('federated job panels', () => {
  beforeEach(() => {
    window.getSelection()?.removeAllRanges();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe('reword step of the annotation panel', () => {
    it('asks to reword each target, then submits the rewordings with the annotation', async () => {
      const { socket, events } = await holding('message.annotation.job', complaintJob());
      select('tummy ache');
      await events.keyboard('2'); // Current complaint, in the fixed order
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(submissions(socket, 'message.annotation')).toHaveLength(0);

      const field = screen.getByRole('textbox', { name: 'Reword sentence for tummy ache' });
      expect(
        screen.getByText(rewordStartPrompt('tummy ache'), { selector: 'p' }),
      ).toBeInTheDocument();
      expect(field).toHaveValue(rewordStartPrompt('tummy ache'));

      await events.clear(field);
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText(rewordMissingMessage('tummy ache'))).toBeInTheDocument();

      await events.type(field, 'When did your tummy ache start?');
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      const sent = submissions(socket, 'message.annotation');
      expect(sent).toHaveLength(1);
      expect(sent[0]?.data).toEqual({
        action: 'execute',
        conversationId: 'conv-1',
        messageId: 'msg-1',
        userId: 'patient-9',
        entities: [{ start: 9, end: 19, extract: 'tummy ache', category: 'current_complaint' }],
        slot: { id: 'slot-cc', type: 'text', code: 'current_complaint', value: null },
        rewordings: [
          {
            entityExtract: 'tummy ache',
            category: 'current_complaint',
            text: 'When did your tummy ache start?',
          },
        ],
        jobId: JOB_ID,
      });
    });

    it('Back returns to the annotation with the annotations kept', async () => {
      const { events } = await holding('message.annotation.job', complaintJob());
      select('tummy ache');
      await events.keyboard('2'); // Current complaint, in the fixed order
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      await events.click(screen.getByRole('button', { name: 'Back' }));
      expect(
        screen.getByRole('heading', { name: 'Annotate current complaint' }),
      ).toBeInTheDocument();
      expect(
        screen.getByRole('button', { name: 'Delete Current complaint: tummy ache' }),
      ).toBeInTheDocument();
    });
  });

  describe('reword job', () => {
    it("rewords the job's entity and answers quinn with suggest_entity_reword", async () => {
      const { socket, events } = await holding(
        'message.annotation.job',
        complaintJob({
          job: { purpose: 'reword' },
          entity: { extract: 'tummy ache', category: 'current_complaint' },
        }),
      );
      expect(
        screen.getByRole('heading', { name: 'Reword sentence for tummy ache' }),
      ).toBeInTheDocument();
      const field = screen.getByRole('textbox', { name: 'Reword sentence for tummy ache' });
      expect(field).toHaveValue(rewordStartPrompt('tummy ache'));
      await events.clear(field);
      await events.type(field, 'Since when has your tummy hurt?');
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(submissions(socket, 'quinn.action.answer_quinn')[0]?.data).toEqual({
        action: 'suggest_entity_reword',
        conversationId: 'conv-1',
        messageId: 'msg-1',
        userId: 'patient-9',
        entity: { extract: 'tummy ache', category: 'current_complaint' },
        rewordings: [
          {
            entityExtract: 'tummy ache',
            category: 'current_complaint',
            text: 'Since when has your tummy hurt?',
          },
        ],
        jobId: JOB_ID,
      });
    });
  });

  describe('rephrase screen', () => {
    const rephraseJob = complaintJob({
      metadata: { xdhreitopts: 'Where does it hurt? ~ When did it start?' },
    });

    it('Exception goes to the rephrase screen; a choice is needed; submit rephrases', async () => {
      const { socket, events } = await holding('message.annotation.job', rephraseJob);
      await events.click(screen.getByRole('button', { name: 'Exception' }));
      expect(
        screen.getByRole('heading', { name: 'Rephrase previous question.' }),
      ).toBeInTheDocument();
      const group = screen.getByRole('radiogroup', { name: 'Rephrase previous question.' });
      expect(
        within(group)
          .getAllByRole('radio')
          .map((radio) => radio.getAttribute('value')),
      ).toEqual(['Where does it hurt?', 'When did it start?']);

      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText(SELECT_QUESTION_MESSAGE)).toBeInTheDocument();
      expect(submissions(socket, 'message.rephrase.question')).toHaveLength(0);

      await events.click(screen.getByRole('radio', { name: 'When did it start?' }));
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(submissions(socket, 'message.rephrase.question')[0]?.data).toEqual({
        conversationId: 'conv-1',
        recipientId: 'patient-9',
        message: 'When did it start?',
        replyType: 'REPHRASE',
        replyTo: 'msg-1',
        jobId: JOB_ID,
      });
      expect(submissions(socket, 'message.annotation.exception')).toHaveLength(0);
    });

    it('Back returns to the annotation; the Exception of the rephrase screen sends it', async () => {
      const { socket, events } = await holding('message.annotation.job', rephraseJob);
      await events.click(screen.getByRole('button', { name: 'Exception' }));
      await events.click(screen.getByRole('button', { name: 'Back' }));
      expect(
        screen.getByRole('heading', { name: 'Annotate current complaint' }),
      ).toBeInTheDocument();

      await events.click(screen.getByRole('button', { name: 'Exception' }));
      await events.click(screen.getByRole('button', { name: 'Exception' }));
      expect(submissions(socket, 'message.annotation.exception')[0]?.data).toEqual({
        action: 'exception',
        conversationId: 'conv-1',
        messageId: 'msg-1',
        slot: { id: 'slot-cc', code: 'current_complaint' },
        jobId: JOB_ID,
      });
    });

    it('reads options given as [id, content] pairs', async () => {
      const { events } = await holding(
        'message.annotation.job',
        complaintJob({ slotUtteranceSpecification: { options: [['o1', 'Is it sore?']] } }),
      );
      await events.click(screen.getByRole('button', { name: 'Exception' }));
      expect(screen.getByRole('radio', { name: 'Is it sore?' })).toBeInTheDocument();
    });
  });

  describe('priority job', () => {
    const priorityJob = {
      priority: 'Which of these worries you most?',
      choices: [
        { id: 'c1', extract: 'repeat of my inhaler' },
        { id: 'c2', extract: 'a rash on my arm' },
      ],
      metadata: { xdhconvid: 'conv-2' },
    };

    it('needs a choice, then sends hpi.prioritised with the choice id', async () => {
      const { socket, events } = await holding('intent.hpi.priority.job', priorityJob);
      expect(
        screen.getByRole('heading', { name: 'Select the highest priority complaint.' }),
      ).toBeInTheDocument();
      expect(screen.getByText('Which of these worries you most?')).toBeInTheDocument();
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText(SELECT_PRIORITY_MESSAGE)).toBeInTheDocument();

      await events.click(screen.getByRole('radio', { name: 'a rash on my arm' }));
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(submissions(socket, 'hpi.prioritised')[0]?.data).toEqual({
        action: 'set_priority',
        conversationId: 'conv-2',
        priority: 'c2',
        jobId: JOB_ID,
      });
      // Busy until the server answers: a second submit cannot be clicked.
      expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
    });

    it('its exception is hpi.prioritised.exception', async () => {
      const { socket, events } = await holding('intent.hpi.priority.job', priorityJob);
      await events.click(screen.getByRole('button', { name: 'Exception' }));
      expect(submissions(socket, 'hpi.prioritised.exception')[0]?.data).toEqual({
        action: 'exception',
        conversationId: 'conv-2',
        jobId: JOB_ID,
      });
    });
  });

  describe('RPA manual step', () => {
    const rpaJob = {
      portal: 'https://emr.harbour-health.example/patients/leon-fischer',
      step: 'Attach the intake notes by hand.',
      metadata: { xdhconvid: 'conv-3' },
    };

    it('opens the portal in a new tab and Done clears the robot', async () => {
      const open = vi.spyOn(window, 'open').mockReturnValue(null);
      const { socket, events } = await holding('robot-process-automation.manual-step.job', rpaJob);
      expect(screen.getByRole('heading', { name: 'RPA manual step needed.' })).toBeInTheDocument();
      expect(screen.getByText('Attach the intake notes by hand.')).toBeInTheDocument();
      await events.click(screen.getByRole('button', { name: 'Open Portal' }));
      expect(open).toHaveBeenCalledWith(rpaJob.portal, '_blank', 'noopener,noreferrer');

      await events.click(screen.getByRole('button', { name: 'Done' }));
      expect(submissions(socket, 'rpa.robot.clear')[0]?.data).toEqual({
        action: 'clear',
        conversationId: 'conv-3',
        jobId: JOB_ID,
      });
    });

    it('offers no Open Portal for an address that is not a web address', async () => {
      await holding('robot-process-automation.manual-step.job', {
        ...rpaJob,
        portal: 'javascript:alert(1)',
      });
      expect(screen.queryByRole('button', { name: 'Open Portal' })).not.toBeInTheDocument();
      expect(screen.getByText('This job gives no portal address.')).toBeInTheDocument();
    });
  });

  describe('entity normalisation job', () => {
    const normaliseJob = {
      lastTurn: turn(TUMMY),
      job: { purpose: 'normalise' },
      entity: { extract: 'tummy ache', category: 'sx', concepts: [], normalised: false },
    };
    const result = {
      index: ['abdominal pain', 'tummy ache', 'stomach ache'],
      canonicalName: 'Abdominal pain',
      conceptId: 'C0000737',
      name: 'tummy ache',
    };
    const typeaheadTexts = (fetchMock: { mock: { calls: unknown[][] } }) =>
      fetchMock.mock.calls.flatMap(([input]) => {
        const url = new URL(String(input), 'http://localhost');
        return url.pathname === '/internal/utilities/typeahead'
          ? [`${url.searchParams.get('t')}|${url.searchParams.get('type')}`]
          : [];
      });

    it('searches concepts from 3 characters and answers quinn with the chosen concept', async () => {
      const { socket, events, fetchMock } = await holding('message.annotation.job', normaliseJob, {
        'GET /internal/utilities/typeahead': () => json(200, { results: [result] }),
      });
      expect(screen.getByText('tummy ache')).toBeInTheDocument();
      const field = screen.getByRole('combobox', { name: 'Concept' });
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText(SELECT_CONCEPT_MESSAGE)).toBeInTheDocument();

      await events.clear(field);
      await events.type(field, 'ab');
      expect(typeaheadTexts(fetchMock).filter((t) => t.startsWith('ab'))).toEqual([]);
      await events.type(field, 'd');
      await waitFor(() => expect(typeaheadTexts(fetchMock)).toContain('abd|concept'));
      await events.click(await screen.findByRole('option', { name: /Abdominal pain/ }));
      expect(field).toHaveValue('Abdominal pain');

      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(submissions(socket, 'quinn.action.answer_quinn')[0]?.data).toEqual({
        action: 'suggest_entity_normalisation',
        conversationId: 'conv-1',
        messageId: 'msg-1',
        userId: 'patient-9',
        entity: { extract: 'tummy ache', category: 'sx' },
        concept: {
          id: expect.any(String) as unknown,
          code: { code: 'C0000737', system: CONCEPT_SYSTEM },
          text: 'Abdominal pain',
          value: 'tummy ache',
        },
        jobId: JOB_ID,
      });
    });

    it('says so when the typeahead fails, and lists nothing', async () => {
      const { events } = await holding('message.annotation.job', normaliseJob, {
        'GET /internal/utilities/typeahead': () =>
          errorAnswer(503, 'Service Unavailable', 'Later.'),
      });
      expect(await screen.findByText(TYPEAHEAD_ERROR_MESSAGE)).toBeInTheDocument();
      await events.click(screen.getByRole('combobox', { name: 'Concept' }));
      expect(screen.queryByRole('option')).not.toBeInTheDocument();
    });
  });

  describe('two-step intent flow', () => {
    const UTTERANCE = "I need a repeat of my inhaler and I've also got a rash on my arm";
    const intentJob = (overrides: Record<string, unknown> = {}) => ({
      lastTurn: turn(UTTERANCE),
      quinnLastTurn: { content: 'What would you like to talk about today?' },
      intents: ['repeat_prescription', 'rash'],
      relatedSlots: ['medication', 'body_site'],
      ...overrides,
    });

    it('step 0 annotates the agenda, step 1 the entities, Back returns; submit asks the assistant (message.intents) and submits its answer', async () => {
      const answered = {
        type: 'message.annotation',
        data: { action: 'repeat_prescription', conversationId: 'conv-1', messageId: 'msg-1' },
      };
      let asked: { body: unknown; tenant: string | null } | undefined;
      const { socket, events } = await holding('intent.classification.job', intentJob(), {
        'POST /internal/quinn/messages/intents': (request) => {
          asked = { body: request.body, tenant: request.headers.get('X-Tenant-ID') };
          return json(200, answered);
        },
      });
      expect(
        screen.getByRole('heading', { name: 'Annotate the agenda intent' }),
      ).toBeInTheDocument();
      await events.click(screen.getByRole('button', { name: 'Next' }));
      expect(await screen.findByText(ANNOTATE_AGENDA_MESSAGE)).toBeInTheDocument();

      select('repeat of my inhaler');
      expect(
        within(screen.getByRole('menu', { name: 'Categories' }))
          .getAllByRole('menuitem')
          .map((item) => item.textContent),
      ).toEqual(['1Repeat prescription', '2Rash']);
      await events.keyboard('1');
      await events.click(screen.getByRole('button', { name: 'Next' }));
      expect(screen.getByRole('heading', { name: 'Annotate the entities' })).toBeInTheDocument();
      expect(screen.getByText('Agenda: Repeat prescription')).toBeInTheDocument();

      await events.click(screen.getByRole('button', { name: 'Back' }));
      expect(
        screen.getByRole('heading', { name: 'Annotate the agenda intent' }),
      ).toBeInTheDocument();
      await events.click(screen.getByRole('button', { name: 'Next' }));

      select('inhaler');
      // The categories keep one fixed order (issue 20): Medication is on page 2.
      await events.keyboard(' ');
      const medication = within(screen.getByRole('menu', { name: 'Categories' }))
        .getAllByRole('menuitem')
        .findIndex((item) => item.textContent?.endsWith('Medication'));
      expect(medication).toBeGreaterThanOrEqual(0);
      await events.keyboard(String(medication + 1));
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      await waitFor(() => expect(submissions(socket, 'message.annotation')).toHaveLength(1));
      expect(asked).toEqual({
        tenant: 'acme',
        body: {
          message: { conversationId: 'conv-1', messageId: 'msg-1', userId: 'patient-9' },
          entities: [
            { start: 9, end: 29, extract: 'repeat of my inhaler', category: 'repeat_prescription' },
            { start: 22, end: 29, extract: 'inhaler', category: 'medication' },
          ],
        },
      });
      expect(submissions(socket, 'message.annotation')[0]?.data).toEqual({
        ...answered.data,
        jobId: JOB_ID,
      });
      // The busy flag blocks a second action until the server answers.
      expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
      expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    });

    it('says what the assistant answered when message.intents fails, and sends nothing', async () => {
      const { socket, events } = await holding('intent.classification.job', intentJob(), {
        'POST /internal/quinn/messages/intents': () =>
          errorAnswer(504, 'Gateway Timeout', 'The assistant did not answer within 10 s.'),
      });
      select('repeat of my inhaler');
      await events.keyboard('1');
      await events.click(screen.getByRole('button', { name: 'Next' }));
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(
        await screen.findByText('Gateway Timeout - The assistant did not answer within 10 s.'),
      ).toBeInTheDocument();
      expect(socket.types()).not.toContain('message.annotation');
      expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
    });

    it('needs an intent among the annotations', async () => {
      const { socket, events } = await holding(
        'intent.classification.job',
        intentJob({
          lastTurn: turn(UTTERANCE, [{ start: 50, end: 54, extract: 'rash', category: 'sx' }]),
        }),
      );
      await events.click(screen.getByRole('button', { name: 'Next' }));
      expect(await screen.findByText(ANNOTATE_INTENT_MESSAGE)).toBeInTheDocument();
      expect(
        screen.getByRole('heading', { name: 'Annotate the agenda intent' }),
      ).toBeInTheDocument();
      expect(socket.types()).not.toContain('message.annotation');
    });
  });

  describe('boolean and optional slots', () => {
    const booleanJob = (multiplicity: string) =>
      complaintJob({
        slotSpecification: {
          code: 'fever',
          short_description: 'fever',
          data_type: 'boolean',
          multiplicity,
        },
        slot: { id: 'slot-fever', code: 'fever' },
        lastTurn: turn('I think I had a fever'),
      });

    it('needs endorses/denies, then sends the choice as the slot value', async () => {
      const { socket, events } = await holding('message.annotation.job', booleanJob('0..1'));
      const answer = screen.getByRole('group', { name: 'Answer' });
      expect(
        within(answer)
          .getAllByRole('button')
          .map((button) => button.textContent),
      ).toEqual(['1Endorse', '2Deny', '3Unsure']);
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText(SELECT_ENDORSES_DENIES_MESSAGE)).toBeInTheDocument();
      expect(submissions(socket, 'message.annotation')).toHaveLength(0);

      await events.click(screen.getByRole('button', { name: 'Deny' }));
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(submissions(socket, 'message.annotation')[0]?.data).toEqual({
        action: 'execute',
        conversationId: 'conv-1',
        messageId: 'msg-1',
        userId: 'patient-9',
        entities: [],
        slot: { id: 'slot-fever', type: 'boolean', code: 'fever', value: 'deny' },
        jobId: JOB_ID,
      });
    });

    it('patient unsure asks for confirmation, then submits __skipped__', async () => {
      const { socket, events } = await holding('message.annotation.job', booleanJob('0..*'));
      await events.click(screen.getByRole('button', { name: 'patient unsure' }));
      const dialog = await screen.findByRole('dialog', { name: 'Patient unsure?' });
      await events.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(submissions(socket, 'message.annotation')).toHaveLength(0);

      await events.click(await screen.findByRole('button', { name: 'patient unsure' }));
      await events.click(await screen.findByRole('button', { name: 'Submit as unsure' }));
      expect(submissions(socket, 'message.annotation')[0]?.data).toEqual({
        action: 'execute',
        conversationId: 'conv-1',
        messageId: 'msg-1',
        userId: 'patient-9',
        entities: [],
        slot: { id: 'slot-fever', type: 'boolean', code: 'fever', value: '__skipped__' },
        jobId: JOB_ID,
      });
    });

    it('a required slot offers neither Unsure nor patient unsure', async () => {
      await holding('message.annotation.job', booleanJob('1..1'));
      expect(screen.queryByRole('button', { name: 'Unsure' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'patient unsure' })).not.toBeInTheDocument();
    });
  });
});
