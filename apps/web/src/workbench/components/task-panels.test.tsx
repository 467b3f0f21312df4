import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { INTENTS } from '@loopdesk/contracts/category-menus.ts';
import { rewordOngoingPrompt } from '@loopdesk/workbench/reword.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/fake-server.ts';
import { NO_ENTITY_MESSAGE } from './reword-panel.tsx';
import { panelKindOf } from './job-panel.tsx';
import { panelFailedMessage, PanelErrorBoundary } from './panel-error-boundary.tsx';
import { JOB_ID, menuItems, renderPanel, select, turn } from '../../test/panel-test-kit.tsx';
import { NO_CHOICES_MESSAGE, PRIORITY_HEADING } from './priority-panel.tsx';
import { NO_PORTAL_MESSAGE, RPA_HEADING } from './rpa-manual-step-panel.tsx';
import { REWORD_HEADING } from './reword-step.tsx';
import { NORMALISE_HEADING } from './entity-normalisation-panel.tsx';

// Several user steps each: the default 5 s is tight on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const UTTERANCE = "I need a repeat of my inhaler and I've also got a rash on my arm";

describe('the task panels', () => {
  beforeEach(() => {
    window.getSelection()?.removeAllRanges();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe('which panel shows a job', () => {
    const job = (
      type: Parameters<typeof panelKindOf>[0]['type'],
      data: Record<string, unknown>,
    ) => ({
      id: 'e',
      type,
      data: { jobId: JOB_ID, tenant: 'acme', ...data },
    });
    it.each([
      ['message.annotation.job', {}, 'message-annotation'],
      ['message.annotation.job', { job: { purpose: 'reword' } }, 'reword'],
      ['message.annotation.job', { job: { purpose: 'normalise' } }, 'entity-normalisation'],
      ['intent.classification.job', {}, 'intent-annotation'],
      ['intent.hpi.priority.job', {}, 'priority'],
      ['robot-process-automation.manual-step.job', {}, 'rpa-manual-step'],
      ['exception.job', {}, 'message-annotation'],
      ['exception.job', { job: { purpose: 'normalise' } }, 'entity-normalisation'],
      ['exception.job', { intents: ['hpi'] }, 'intent-annotation'],
    ] as const)('%s with %j → %s', (type, data, kind) => {
      expect(panelKindOf(job(type, data))).toBe(kind);
    });
  });

  describe('the two-step intent flow', () => {
    it("offers the fixed intents when the job lists none, then the agenda intent's context menu", async () => {
      const asked: string[] = [];
      const { events } = renderPanel(
        'intent.classification.job',
        { lastTurn: turn(UTTERANCE) },
        {
          routes: {
            'GET /internal/quinn/intents/repeat_prescription/_context_menu': (request) => {
              asked.push(request.headers.get('X-Tenant-ID') ?? '');
              return json(200, { menu: { medication: null }, derived: [] });
            },
          },
        },
      );
      select('repeat of my inhaler');
      expect(menuItems()).toEqual(INTENTS.map((intent, i) => `${i + 1}${intent.label}`));
      await events.keyboard('3'); // Repeat prescription
      // Human words (issue 20): the highlight reads as the menu does, not repeat_prescription.
      expect(
        screen.getByRole('button', { name: 'Delete Repeat prescription: repeat of my inhaler' }),
      ).toBeInTheDocument();
      await events.click(screen.getByRole('button', { name: 'Next' }));
      await waitFor(() => expect(asked).toEqual(['acme']));
      select('inhaler');
      await waitFor(() => expect(menuItems()).toEqual(['1Medication', '2Intents›']));
      expect(screen.getByText('Agenda: Repeat prescription')).toBeInTheDocument();
    });
  });

  describe('the reword job', () => {
    it("shows the entity's prompt as the starting text and answers quinn", async () => {
      const { sent, events } = renderPanel('message.annotation.job', {
        lastTurn: turn('It started last week'),
        job: { purpose: 'reword' },
        entity: { extract: 'last week', category: 'onset' },
      });
      const field = screen.getByRole('textbox', { name: `${REWORD_HEADING} last week` });
      expect(field).toHaveValue(rewordOngoingPrompt('last week'));
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(sent[0]).toEqual({
        type: 'quinn.action.answer_quinn',
        data: {
          action: 'suggest_entity_reword',
          conversationId: 'conv-1',
          messageId: 'msg-1',
          userId: 'patient-9',
          entity: { extract: 'last week', category: 'onset' },
          rewordings: [
            {
              entityExtract: 'last week',
              category: 'onset',
              text: rewordOngoingPrompt('last week'),
            },
          ],
        },
      });
    });

    it('a custom exception label names its Exception, which sends suggest_forget', async () => {
      const { sent, events } = renderPanel('message.annotation.job', {
        lastTurn: turn('It started last week'),
        slot: { id: 'slot-onset', code: 'onset' },
        job: { purpose: 'reword', exceptionLabel: 'Cannot reword' },
        entity: { extract: 'last week', category: 'onset' },
      });
      expect(screen.queryByRole('button', { name: 'Exception' })).not.toBeInTheDocument();
      await events.click(screen.getByRole('button', { name: 'Cannot reword' }));
      expect(sent[0]).toEqual({
        type: 'message.annotation',
        data: expect.objectContaining({
          action: 'suggest_forget',
          entities: [],
          slot: { id: 'slot-onset', type: '', code: 'onset', value: null },
        }),
      });
    });

    it('without an entity it says so and offers only the exception', () => {
      renderPanel('message.annotation.job', { job: { purpose: 'reword' } });
      expect(screen.getByRole('alert')).toHaveTextContent(NO_ENTITY_MESSAGE);
      expect(screen.queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Exception' })).toBeInTheDocument();
    });
  });

  describe('the entity normalisation job', () => {
    it('without an entity it says so and offers only the exception', () => {
      renderPanel('message.annotation.job', { job: { purpose: 'normalise' } });
      expect(screen.getByRole('heading', { name: NORMALISE_HEADING })).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent(NO_ENTITY_MESSAGE);
      expect(screen.queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
    });
  });

  describe('the priority job', () => {
    it('without choices it says so; the exception is hpi.prioritised.exception', async () => {
      const { sent, events } = renderPanel('intent.hpi.priority.job', {
        metadata: { xdhconvid: 'conv-3' },
      });
      expect(screen.getByRole('heading', { name: PRIORITY_HEADING })).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent(NO_CHOICES_MESSAGE);
      await events.click(screen.getByRole('button', { name: 'Exception' }));
      expect(sent[0]).toEqual({
        type: 'hpi.prioritised.exception',
        data: { action: 'exception', conversationId: 'conv-3' },
      });
    });
  });

  describe('the RPA manual step', () => {
    it('without a portal it says so; Done still clears the robot', async () => {
      const { sent, events } = renderPanel('robot-process-automation.manual-step.job', {
        step: 'Attach the notes by hand.',
      });
      expect(screen.getByRole('heading', { name: RPA_HEADING })).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent(NO_PORTAL_MESSAGE);
      expect(screen.queryByRole('button', { name: 'Open Portal' })).not.toBeInTheDocument();
      await events.click(screen.getByRole('button', { name: 'Done' }));
      expect(sent[0]).toEqual({ type: 'rpa.robot.clear', data: { action: 'clear' } });
    });
  });

  describe('keyboard first: every panel takes the keys at once, and Ctrl+Enter submits', () => {
    it('the two-step flow: Ctrl+Enter is Next on the agenda step, then Submit', async () => {
      let asked = 0;
      const { sent, events } = renderPanel(
        'intent.classification.job',
        { lastTurn: turn(UTTERANCE) },
        {
          routes: {
            'POST /internal/quinn/messages/intents': () => {
              asked += 1;
              return json(200, { type: 'message.annotation', data: { action: 'hpi' } });
            },
          },
        },
      );
      expect(screen.getByRole('region', { name: 'Message' })).toHaveFocus();
      select('rash on my arm');
      await events.keyboard('1'); // Describe a symptom
      await events.keyboard('{Control>}{Enter}{/Control}');
      expect(screen.getByRole('heading', { name: 'Annotate the entities' })).toBeInTheDocument();
      await events.keyboard('{Control>}{Enter}{/Control}');
      await waitFor(() => expect(sent).toHaveLength(1));
      expect(asked).toBe(1);
      expect(sent[0]).toEqual({ type: 'message.annotation', data: { action: 'hpi' } });
    });

    it('the reword job: its field has the focus; Ctrl+Enter in it submits', async () => {
      const { sent, events } = renderPanel('message.annotation.job', {
        lastTurn: turn('It started last week'),
        job: { purpose: 'reword' },
        entity: { extract: 'last week', category: 'onset' },
      });
      const field = screen.getByRole('textbox', { name: `${REWORD_HEADING} last week` });
      expect(field).toHaveFocus();
      await events.clear(field);
      await events.type(field, 'Did it begin before last week?');
      await events.keyboard('{Control>}{Enter}{/Control}');
      expect(sent[0]?.data).toMatchObject({
        action: 'suggest_entity_reword',
        rewordings: [{ entityExtract: 'last week', text: 'Did it begin before last week?' }],
      });
    });

    it('the normalisation job: the concept field has the focus; leaving it keeps the text; Ctrl+Enter submits', async () => {
      const { sent, events } = renderPanel(
        'message.annotation.job',
        {
          lastTurn: turn('My tummy hurts'),
          job: { purpose: 'normalise' },
          entity: { extract: 'tummy hurts', category: 'sx' },
        },
        {
          routes: {
            'GET /internal/utilities/typeahead': () =>
              json(200, {
                results: [
                  {
                    index: ['tummy ache'],
                    name: 'abdominal pain',
                    canonicalName: 'abdominal pain',
                    conceptId: 'LD:abdominal-pain',
                  },
                ],
              }),
          },
        },
      );
      const field = screen.getByRole('combobox', { name: 'Concept' });
      expect(field).toHaveFocus();
      await events.clear(field);
      await events.type(field, 'abdominal');
      // Tabbing away (to Exception, Submit) keeps what was typed.
      await events.tab();
      expect(field).toHaveValue('abdominal');
      await events.click(field);
      await events.keyboard('{ArrowDown}');
      await events.click(await screen.findByRole('option', { name: /abdominal pain/ }));
      await events.keyboard('{Control>}{Enter}{/Control}');
      expect(sent[0]?.data).toMatchObject({
        action: 'suggest_entity_normalisation',
        concept: { code: { code: 'LD:abdominal-pain' }, text: 'abdominal pain' },
      });
    });

    it('the priority job: the first choice has the focus; arrows choose, Ctrl+Enter submits', async () => {
      const { sent, events } = renderPanel('intent.hpi.priority.job', {
        metadata: { xdhconvid: 'conv-3' },
        choices: [
          { id: 'c1', extract: 'repeat of my inhaler' },
          { id: 'c2', extract: 'a rash on my arm' },
        ],
      });
      expect(screen.getByRole('radio', { name: 'repeat of my inhaler' })).toHaveFocus();
      await events.keyboard('{ArrowDown}');
      await events.keyboard('{Control>}{Enter}{/Control}');
      expect(sent).toEqual([
        {
          type: 'hpi.prioritised',
          data: { action: 'set_priority', conversationId: 'conv-3', priority: 'c2' },
        },
      ]);
    });

    it('the RPA step: Open Portal has the focus; Ctrl+Enter is Done', async () => {
      const { sent, events } = renderPanel('robot-process-automation.manual-step.job', {
        portal: 'https://emr.example/patients/1',
        metadata: { xdhconvid: 'conv-4' },
      });
      expect(screen.getByRole('button', { name: 'Open Portal' })).toHaveFocus();
      await events.keyboard('{Control>}{Enter}{/Control}');
      expect(sent).toEqual([
        { type: 'rpa.robot.clear', data: { action: 'clear', conversationId: 'conv-4' } },
      ]);
    });

    it('not from a dialog: Ctrl+Enter in the patient unsure confirmation submits nothing', async () => {
      const { sent, events } = renderPanel('message.annotation.job', {
        lastTurn: turn('It started last week'),
        slotSpecification: { code: 'onset', data_type: 'text', multiplicity: '0..1' },
        slot: { id: 'slot-onset', code: 'onset' },
      });
      await events.click(screen.getByRole('button', { name: 'patient unsure' }));
      await screen.findByRole('dialog');
      await events.keyboard('{Control>}{Enter}{/Control}');
      expect(sent).toEqual([]);
    });
  });

  describe('a panel that cannot show its job', () => {
    function Broken(): never {
      throw new Error('lastTurn.metadata is not an object');
    }

    it('says so instead of a blank screen, and the job can still be raised as an exception', async () => {
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const sent: { type: string; data: unknown }[] = [];
      const job = {
        id: 'e',
        type: 'message.annotation.job' as const,
        data: {
          jobId: JOB_ID,
          tenant: 'acme',
          lastTurn: turn('x'),
          slot: { id: 's', code: 'onset' },
        },
      };
      render(
        <PanelErrorBoundary
          job={job}
          busy={false}
          submit={(type, data) => {
            sent.push({ type, data });
            return { ok: true, eventId: 'x' };
          }}
        >
          <Broken />
        </PanelErrorBoundary>,
      );
      expect(screen.getByRole('alert')).toHaveTextContent(
        panelFailedMessage('lastTurn.metadata is not an object'),
      );
      const events = userEvent.setup();
      await events.click(screen.getByRole('button', { name: 'Exception' }));
      // React reports the caught error on the console: expected here, and only here.
      expect(vi.mocked(console.error).mock.calls.flat().join(' ')).toMatch(/PanelErrorBoundary/);
      vi.mocked(console.error).mockClear();
      expect(sent).toEqual([
        {
          type: 'message.annotation.exception',
          data: {
            action: 'exception',
            conversationId: 'conv-1',
            messageId: 'msg-1',
            slot: { id: 's', code: 'onset' },
          },
        },
      ]);
    });
  });
});
