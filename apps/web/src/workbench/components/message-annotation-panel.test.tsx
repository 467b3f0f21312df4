import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  ANNOTATE_SLOT_OR_PASS_MESSAGE,
  CORRECTLY_ANNOTATED_MESSAGE,
  ANNOTATE_TARGET_SLOT_MESSAGE,
  ANNOTATE_TARGET_SLOT_OR_INTENT_MESSAGE,
  ONLY_ONE_PATIENT_DESCRIPTION_MESSAGE,
  SELECT_ENDORSES_DENIES_MESSAGE,
  SELECT_YES_NO_MESSAGE,
} from '@loopdesk/workbench/validation.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorAnswer, json } from '../../test/fake-server.ts';
import { CUSTOM_EXCEPTION_HINT } from '../utils/exception.ts';
import { COLOUR_LEGEND_LABEL, LABELS_HIDDEN_TEXT } from './annotated-text.tsx';
import { INVALID_STATE_MESSAGE, MISSING_MESSAGE_TEXT } from './message-annotation-panel.tsx';
import { REPHRASE_HEADING } from './rephrase-screen.tsx';
import { menuItems, messageRegion, renderPanel, select, turn } from '../../test/panel-test-kit.tsx';

// Several user steps each: the default 5 s is tight on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const TEXT = 'I feel rough and my back hurts since Monday';

/** A message job; `purpose` undefined gives the older screen. */
function job(
  slot: { code: string; data_type?: string; multiplicity?: string },
  extra: Record<string, unknown> = {},
) {
  return {
    lastTurn: turn(TEXT),
    quinnLastTurn: { content: 'How can we help?' },
    slotSpecification: { short_description: slot.code.replace('_', ' '), ...slot },
    slot: { id: `slot-${slot.code}`, code: slot.code },
    ...extra,
  };
}
const full = { job: { purpose: 'full' } };
/** The hotkey of the menu item whose label starts with `label` on the page shown. */
const digitOf = (label: string) =>
  String(menuItems().findIndex((item) => item.slice(1).startsWith(label)) + 1);

describe('the message annotation panel', () => {
  beforeEach(() => {
    window.getSelection()?.removeAllRanges();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe('the generic screen (a job with a purpose)', () => {
    it('offers the fixed HPI categories in their fixed order, the target among them, the intents last; a wrong category gets the longer message', async () => {
      const { sent, events } = renderPanel(
        'message.annotation.job',
        job({ code: 'duration' }, full),
      );
      select('back hurts');
      // Steady hotkeys (issue 20): the target keeps its fixed place, no code beside the labels.
      expect(menuItems()).toEqual([
        '1Chief complaint',
        '2Current complaint',
        '3Patient description',
        '4Onset',
        '5Symptom',
        '6Associated symptom',
        '7Location',
        '8Duration',
        '9Character',
      ]);
      // 'Symptom' (sx) is on page 1: the target is not annotated.
      const symptom = menuItems().findIndex((item) => item.includes('Symptom'));
      await events.keyboard(String(symptom + 1));
      expect(
        screen.getByRole('button', { name: 'Delete Symptom: back hurts' }),
      ).toBeInTheDocument();
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText(ANNOTATE_TARGET_SLOT_OR_INTENT_MESSAGE)).toBeInTheDocument();
      expect(sent).toEqual([]);
    });

    it('one new intent sharing its span with another annotation marks the message answered', async () => {
      const { sent, events } = renderPanel(
        'message.annotation.job',
        job({ code: 'duration' }, full),
      );
      select('back hurts');
      // Intents come last: on page 2 after the 16 fixed categories.
      await events.keyboard(' ');
      expect(menuItems().at(-1)).toBe('8Intents›');
      await events.keyboard('8');
      expect(screen.getByRole('navigation', { name: 'Menu level' })).toHaveTextContent(
        'Categories › Intents',
      );
      expect(menuItems()[0]).toBe('1Describe a symptom');
      await events.keyboard('1');
      select('back hurts');
      const symptom = menuItems().findIndex((item) => item.includes('Symptom'));
      await events.keyboard(String(symptom + 1));
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(sent[0]?.data).toMatchObject({
        action: 'answer',
        entities: [
          { start: 20, end: 30, extract: 'back hurts', category: 'hpi' },
          { start: 20, end: 30, extract: 'back hurts', category: 'sx' },
        ],
      });
    });

    it('a boolean slot is answered from the menu; without an answer it says yes/no', async () => {
      const { sent, events } = renderPanel(
        'message.annotation.job',
        job({ code: 'back_pain', data_type: 'boolean', multiplicity: '0..1' }, full),
      );
      expect(screen.queryByRole('group', { name: 'Answer' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'patient unsure' })).not.toBeInTheDocument();
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText(SELECT_YES_NO_MESSAGE)).toBeInTheDocument();

      select('back hurts');
      expect(menuItems().slice(0, 3)).toEqual(['1Endorse', '2Deny', '3Unsure']);
      await events.keyboard('1');
      expect(
        screen.getByRole('button', { name: 'Delete Back pain: Endorse: back hurts' }),
      ).toBeInTheDocument();
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(sent[0]?.data).toMatchObject({
        entities: [{ start: 20, end: 30, extract: 'back hurts', category: 'back_pain' }],
        slot: { id: 'slot-back_pain', type: 'boolean', code: 'back_pain', value: 'endorse' },
      });
    });

    it("fetches the intent's context menu with the tenant; its derived category counts as the target", async () => {
      const asked: { path: string; tenant: string | null }[] = [];
      const { sent, events } = renderPanel(
        'message.annotation.job',
        job({ code: 'duration' }, { ...full, metadata: { xdhtopint: 'repeat_prescription' } }),
        {
          routes: {
            'GET /internal/quinn/intents/repeat_prescription/_context_menu': (request) => {
              asked.push({ path: request.path, tenant: request.headers.get('X-Tenant-ID') });
              return json(200, {
                menu: { Prescription: ['dose', 'frequency'] },
                derived: ['medication'],
              });
            },
          },
        },
      );
      await waitFor(() => expect(asked).toHaveLength(1));
      expect(asked[0]?.tenant).toBe('acme');
      select('back');
      await waitFor(() =>
        expect(menuItems()).toEqual(['1Duration', '2Medication', '3Prescription›', '4Intents›']),
      );
      await events.keyboard('2');
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(sent[0]?.data).toMatchObject({
        entities: [{ extract: 'back', category: 'medication' }],
      });
    });

    it('a failed context menu means no override, and no error', async () => {
      renderPanel(
        'message.annotation.job',
        job({ code: 'duration' }, { ...full, metadata: { xdhtopint: 'hpi' } }),
        {
          routes: {
            'GET /internal/quinn/intents/hpi/_context_menu': () =>
              errorAnswer(504, 'Gateway Timeout', 'The assistant did not answer within 10 s.'),
          },
        },
      );
      select('back');
      await waitFor(() => expect(menuItems()[0]).toBe('1Chief complaint'));
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });

    it('allows one patient description only', async () => {
      const { sent, events } = renderPanel(
        'message.annotation.job',
        job({ code: 'patient_description' }, full),
      );
      for (const extract of ['feel rough', 'back hurts']) {
        select(extract);
        await events.keyboard(digitOf('Patient description'));
      }
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText(ONLY_ONE_PATIENT_DESCRIPTION_MESSAGE)).toBeInTheDocument();
      expect(sent).toEqual([]);
    });

    it('annotate-only hides the annotations of the hidden categories', () => {
      renderPanel(
        'message.annotation.job',
        job(
          { code: 'duration' },
          {
            job: { purpose: 'annotate-only' },
            lastTurn: turn(TEXT, [
              { start: 20, end: 30, extract: 'back hurts', category: 'sx' },
              { start: 31, end: 43, extract: 'since Monday', category: 'duration' },
            ]),
          },
        ),
      );
      expect(
        screen.queryByRole('button', { name: 'Delete Symptom: back hurts' }),
      ).not.toBeInTheDocument();
      expect(
        screen.getByRole('button', { name: 'Delete Duration: since Monday' }),
      ).toBeInTheDocument();
    });
  });

  describe('the older screen (a job without a purpose)', () => {
    it('a standard slot needs an annotation or pass; annotations that miss get the short message', async () => {
      const { sent, events } = renderPanel(
        'message.annotation.job',
        job({ code: 'duration', multiplicity: '0..1' }),
      );
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText(ANNOTATE_SLOT_OR_PASS_MESSAGE)).toBeInTheDocument();
      select('back hurts');
      const symptom = menuItems().findIndex((item) => item.includes('Symptom'));
      await events.keyboard(String(symptom + 1));
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText(ANNOTATE_TARGET_SLOT_MESSAGE)).toBeInTheDocument();
      // Patient unsure is the pass: confirmed, it submits '__skipped__' without annotations.
      await events.click(screen.getByRole('button', { name: 'patient unsure' }));
      await events.click(await screen.findByRole('button', { name: 'Submit as unsure' }));
      expect(sent[0]?.data).toMatchObject({
        action: 'execute',
        entities: [],
        slot: { code: 'duration', value: '__skipped__' },
      });
    });

    it('a boolean slot needs the endorses/denies toggle', async () => {
      const { sent, events } = renderPanel(
        'message.annotation.job',
        job({ code: 'back_pain', data_type: 'boolean', multiplicity: '1..1' }),
      );
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText(SELECT_ENDORSES_DENIES_MESSAGE)).toBeInTheDocument();
      const toggle = screen.getByRole('group', { name: 'Answer' });
      expect(
        within(toggle)
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual(['1Endorse', '2Deny']);
      await events.click(within(toggle).getByRole('button', { name: 'Endorse' }));
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(sent[0]?.data).toMatchObject({ slot: { value: 'endorse' } });
    });
  });

  describe("an exception desk task (exception.job) uses the exception panel's wording", () => {
    it('the short target message and the endorses/denies toggle', async () => {
      const { sent, events } = renderPanel('exception.job', job({ code: 'duration' }, full));
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText(ANNOTATE_TARGET_SLOT_MESSAGE)).toBeInTheDocument();
      expect(sent).toEqual([]);
    });
  });

  describe('the exception flow (spec 1 §4)', () => {
    const rephrase = {
      slotUtteranceSpecification: { options: [['q1', 'Where does it hurt?']] },
    };

    it('with rephrase options and no custom label, Exception opens the rephrase screen; its Exception escalates', async () => {
      const { sent, events } = renderPanel(
        'message.annotation.job',
        job({ code: 'duration' }, { ...full, ...rephrase }),
      );
      await events.click(screen.getByRole('button', { name: 'Exception' }));
      expect(screen.getByRole('heading', { name: REPHRASE_HEADING })).toBeInTheDocument();
      await events.click(screen.getByRole('button', { name: 'Exception' }));
      expect(sent).toEqual([
        {
          type: 'message.annotation',
          data: expect.objectContaining({ action: 'suggest_escalation', entities: [] }),
        },
      ]);
    });

    it('a custom exception label names the button, skips the rephrase screen and sends suggest_forget', async () => {
      const { sent, events } = renderPanel(
        'message.annotation.job',
        job(
          { code: 'duration' },
          { job: { purpose: 'annotate-only', exceptionLabel: 'Not about health' }, ...rephrase },
        ),
      );
      expect(screen.queryByRole('button', { name: 'Exception' })).not.toBeInTheDocument();
      const button = screen.getByRole('button', { name: 'Not about health' });
      expect(button).toHaveAccessibleDescription(CUSTOM_EXCEPTION_HINT);
      // It acts at once, as every Exception does (docs/decisions.md issue 20).
      await events.click(button);
      expect(screen.queryByRole('heading', { name: REPHRASE_HEADING })).not.toBeInTheDocument();
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(sent).toEqual([
        {
          type: 'message.annotation',
          data: {
            action: 'suggest_forget',
            conversationId: 'conv-1',
            messageId: 'msg-1',
            userId: 'patient-9',
            entities: [],
            slot: { id: 'slot-duration', type: '', code: 'duration', value: null },
          },
        },
      ]);
    });

    it('the custom event is a discard: a correctly annotated message may still raise it', async () => {
      const annotated = {
        lastTurn: turn(TEXT, [
          { start: 31, end: 43, extract: 'since Monday', category: 'duration' },
        ]),
      };
      const escalate = renderPanel(
        'message.annotation.job',
        job({ code: 'duration' }, { ...full, ...annotated }),
      );
      await escalate.events.click(screen.getByRole('button', { name: 'Exception' }));
      expect(await screen.findByText(CORRECTLY_ANNOTATED_MESSAGE)).toBeInTheDocument();
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      cleanup();

      const forget = renderPanel(
        'message.annotation.job',
        job(
          { code: 'duration' },
          { job: { purpose: 'full', exceptionLabel: 'Forget message' }, ...annotated },
        ),
      );
      await forget.events.click(screen.getByRole('button', { name: 'Forget message' }));
      expect(forget.sent[0]?.data).toMatchObject({ action: 'suggest_forget', entities: [] });
    });

    it('a job without a purpose ignores the label: its exception has no action to carry it', async () => {
      const { sent, events } = renderPanel(
        'message.annotation.job',
        job({ code: 'duration' }, { job: { exceptionLabel: 'Forget message' } }),
      );
      await events.click(screen.getByRole('button', { name: 'Exception' }));
      expect(sent[0]?.type).toBe('message.annotation.exception');
    });
  });

  describe('bad input never leaves a blank screen', () => {
    it('no slot specification: the invalid-state text, and the exception', async () => {
      const { sent, events } = renderPanel('message.annotation.job', {
        lastTurn: turn(TEXT),
        slot: { id: 's', code: 'x' },
      });
      expect(screen.getByRole('alert')).toHaveTextContent(INVALID_STATE_MESSAGE);
      await events.click(screen.getByRole('button', { name: 'Exception' }));
      expect(sent[0]).toEqual({
        type: 'message.annotation.exception',
        data: {
          action: 'exception',
          conversationId: 'conv-1',
          messageId: 'msg-1',
          slot: { id: 's', code: 'x' },
        },
      });
    });

    it('no patient message: says so, and the exception carries the ids the job has', async () => {
      const { sent, events } = renderPanel('message.annotation.job', {
        slotSpecification: { code: 'duration' },
        job: { purpose: 'full' },
        metadata: { xdhconvid: 'conv-7' },
      });
      expect(screen.getByRole('alert')).toHaveTextContent(MISSING_MESSAGE_TEXT);
      await events.click(screen.getByRole('button', { name: 'Exception' }));
      expect(sent[0]).toEqual({
        type: 'message.annotation.exception',
        data: { action: 'exception', conversationId: 'conv-7', slot: { id: '', code: 'duration' } },
      });
    });
  });

  describe('the colour keys, 0 and backtick (spec 1 §9)', () => {
    const annotated = () =>
      job(
        { code: 'duration' },
        {
          ...full,
          lastTurn: turn(TEXT, [
            { start: 20, end: 30, extract: 'back hurts', category: 'sx' },
            { start: 31, end: 43, extract: 'since Monday', category: 'duration' },
          ]),
        },
      );
    const mark = (text: string) =>
      [...messageRegion().querySelectorAll('mark')].find((m) => m.textContent === text);

    it('0 colours each category with a legend, backtick hides the labels; again undoes each', async () => {
      const { events } = renderPanel('message.annotation.job', annotated());
      expect(messageRegion()).toHaveAttribute('data-colours', 'single');
      expect(screen.queryByRole('list', { name: COLOUR_LEGEND_LABEL })).not.toBeInTheDocument();

      await events.keyboard('0');
      expect(messageRegion()).toHaveAttribute('data-colours', 'category');
      // Each category its own colour, the label chip in the same colour as its text.
      expect(mark('back hurts')).toHaveAttribute('data-colour', '0');
      expect(mark('since Monday')).toHaveAttribute('data-colour', '1');
      const legend = screen.getByRole('list', { name: COLOUR_LEGEND_LABEL });
      expect(
        within(legend)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(['Symptom', 'Duration']);

      await events.keyboard('`');
      expect(messageRegion()).toHaveAttribute('data-labels', 'hidden');
      expect(screen.getByText(LABELS_HIDDEN_TEXT)).toBeInTheDocument();
      await events.keyboard('`');
      expect(messageRegion()).toHaveAttribute('data-labels', 'shown');
      expect(screen.queryByText(LABELS_HIDDEN_TEXT)).not.toBeInTheDocument();
      await events.keyboard('0');
      expect(messageRegion()).toHaveAttribute('data-colours', 'single');
      expect(screen.queryByRole('list', { name: COLOUR_LEGEND_LABEL })).not.toBeInTheDocument();
    });

    it('with the menu open they colour and leave the menu as it was; a new annotation takes the next colour', async () => {
      const { events } = renderPanel('message.annotation.job', annotated());
      select('rough');
      const before = menuItems();
      await events.keyboard('0');
      expect(messageRegion()).toHaveAttribute('data-colours', 'category');
      expect(menuItems()).toEqual(before);
      // The target slot, duration: the colour it already has.
      await events.keyboard(digitOf('Duration'));
      expect(mark('rough')).toHaveAttribute('data-colour', '1');
      expect(mark('back hurts')).toHaveAttribute('data-colour', '0');
      // A new category takes the next colour; the others keep theirs.
      select('I feel');
      const location = menuItems().findIndex((item) => item.includes('Location'));
      await events.keyboard(String(location + 1));
      expect(mark('I feel')).toHaveAttribute('data-colour', '2');
      expect(mark('since Monday')).toHaveAttribute('data-colour', '1');
    });

    it('the view stays for the next job; typing in a field or a dialog does not change it', async () => {
      const first = renderPanel('message.annotation.job', annotated());
      await first.events.keyboard('0');
      cleanup();
      // An optional slot on the older screen: 'patient unsure' opens its confirmation.
      const { events } = renderPanel(
        'message.annotation.job',
        job({ code: 'duration', multiplicity: '0..1' }),
      );
      expect(messageRegion()).toHaveAttribute('data-colours', 'category');
      await events.click(screen.getByRole('button', { name: 'patient unsure' }));
      await screen.findByRole('dialog');
      await events.keyboard('0`');
      // The dialog hides the rest of the screen from the accessibility tree.
      const hidden = document.querySelector('[role="region"][aria-label="Message"]');
      expect(hidden).toHaveAttribute('data-colours', 'category');
      expect(hidden).toHaveAttribute('data-labels', 'shown');
    });
  });

  describe('keyboard only', () => {
    it('a new job focuses its message; Shift+arrows select, the menu opens on letting go, a digit annotates', async () => {
      const { sent, events } = renderPanel(
        'message.annotation.job',
        job({ code: 'duration' }, full),
      );
      // A new job focuses its message, so the keys work at once; Tab comes back to it.
      expect(messageRegion()).toHaveFocus();
      await events.tab({ shift: true });
      expect(screen.getByRole('button', { name: 'Clear' })).toHaveFocus();
      await events.tab();
      expect(messageRegion()).toHaveFocus();
      // The caret starts at the message start: Ctrl+Right word by word to 'since'.
      for (let i = 0; i < 7; i++) {
        await events.keyboard('{Control>}{ArrowRight}{/Control}');
      }
      await events.keyboard('{ArrowRight}');
      await events.keyboard('{Shift>}{Control>}{ArrowRight}{ArrowRight}{/Control}{/Shift}');
      expect(window.getSelection()?.toString()).toBe('since Monday');
      expect(screen.getByRole('menu', { name: 'Categories' })).toBeInTheDocument();
      await events.keyboard(digitOf('Duration'));
      expect(
        screen.getByRole('button', { name: 'Delete Duration: since Monday' }),
      ).toBeInTheDocument();
      await events.keyboard('{Control>}{Enter}{/Control}');
      expect(sent[0]?.data).toMatchObject({
        entities: [{ start: 31, end: 43, extract: 'since Monday', category: 'duration' }],
      });
    });

    it('a mouse press inside the selection starts a new one, and the keys go on from where the mouse let go', async () => {
      const { sent, events } = renderPanel(
        'message.annotation.job',
        job({ code: 'duration' }, full),
      );
      messageRegion().focus();
      select('back hurts');
      expect(screen.getByRole('menu', { name: 'Categories' })).toBeInTheDocument();
      // Pressing inside the selected text must not keep it (the browser would drag it instead
      // of selecting anew, and a digit would annotate the old selection).
      fireEvent.mouseDown(messageRegion(), { button: 0 });
      expect(window.getSelection()?.isCollapsed).toBe(true);
      select('hurts since');
      const symptom = menuItems().findIndex((item) => item.includes('Symptom'));
      await events.keyboard(String(symptom + 1));
      // The caret is where the mouse let go (after 'since'): Shift+Left ×5 selects 'since'.
      await events.keyboard(
        '{Shift>}{ArrowLeft}{ArrowLeft}{ArrowLeft}{ArrowLeft}{ArrowLeft}{/Shift}',
      );
      expect(screen.getByRole('menu', { name: 'Categories' })).toBeInTheDocument();
      await events.keyboard(digitOf('Duration'));
      await events.click(screen.getByRole('button', { name: 'Submit' }));
      expect(sent[0]?.data).toMatchObject({
        entities: [
          { start: 25, end: 36, extract: 'hurts since', category: 'sx' },
          { start: 31, end: 36, extract: 'since', category: 'duration' },
        ],
      });
    });

    it('Shift+Ctrl+Right extends a mouse selection from its focus', async () => {
      const { events } = renderPanel('message.annotation.job', job({ code: 'duration' }, full));
      // A mouse press focuses the message before the drag selects.
      messageRegion().focus();
      select('since');
      await events.keyboard('{Shift>}{Control>}{ArrowRight}{/Control}{/Shift}');
      expect(window.getSelection()?.toString()).toBe('since Monday');
      // Shift+Left takes back a character; an arrow without Shift collapses to a caret.
      await events.keyboard('{Shift>}{ArrowLeft}{/Shift}');
      expect(window.getSelection()?.toString()).toBe('since Monda');
      await events.keyboard('{ArrowLeft}');
      expect(window.getSelection()?.toString()).toBe('');
      expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    });
  });
});
