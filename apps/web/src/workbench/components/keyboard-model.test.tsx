import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { menuItems, messageRegion, renderPanel, select, turn } from '../../test/panel-test-kit.tsx';

// Several user steps each: the default 5 s is tight on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

/** Issue 20 in the panels: no reword sent unread, focus that stays, one keyboard model. */

const TEXT = 'I have a tummy ache and my back hurts';
const complaint = (extra: Record<string, unknown> = {}) => ({
  lastTurn: turn(TEXT),
  quinnLastTurn: { content: 'How can we help?' },
  slotSpecification: {
    code: 'current_complaint',
    short_description: 'current complaint',
    data_type: 'text',
  },
  slot: { id: 'slot-cc', code: 'current_complaint' },
  job: { purpose: 'full' },
  ...extra,
});
const ctrlEnter = '{Control>}{Enter}{/Control}';
const digitOf = (label: string) =>
  String(menuItems().findIndex((item) => item.slice(1).startsWith(label)) + 1);

describe('the keyboard model of the federated panels (issue 20)', () => {
  beforeEach(() => {
    window.getSelection()?.removeAllRanges();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('no reword sent unread: a Ctrl+Enter as the step appears, or by key repeat, is ignored', async () => {
    const { sent, events } = renderPanel('message.annotation.job', complaint(), { hasty: true });
    select('tummy ache');
    await events.keyboard(digitOf('Current complaint'));
    // Too soon after the job appeared: nothing happens.
    await events.keyboard(ctrlEnter);
    expect(screen.queryByRole('region', { name: 'Reword' })).not.toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Submit' }));
    const field = screen.getByRole('textbox', { name: 'Reword sentence for tummy ache' });
    expect(field).toHaveFocus();
    // The patient's words in the prompt are selected: typing replaces them.
    const input = field as HTMLTextAreaElement;
    expect(input.value.slice(input.selectionStart, input.selectionEnd)).toBe('tummy ache');
    await events.keyboard(ctrlEnter);
    fireEvent.keyDown(field, { key: 'Enter', ctrlKey: true, repeat: true });
    expect(sent).toEqual([]);
    await events.click(screen.getByRole('button', { name: 'Submit' }));
    expect(sent).toHaveLength(1);
  });

  it('a held Ctrl+Enter (key repeat) is ignored even after the step was read', () => {
    const { sent } = renderPanel('message.annotation.job', complaint());
    select('tummy ache');
    fireEvent.keyDown(document.activeElement ?? document.body, { key: digitOf('Current') });
    fireEvent.keyDown(document.body, { key: 'Enter', ctrlKey: true });
    const field = screen.getByRole('textbox', { name: 'Reword sentence for tummy ache' });
    fireEvent.keyDown(field, { key: 'Enter', ctrlKey: true, repeat: true });
    expect(sent).toEqual([]);
    fireEvent.keyDown(field, { key: 'Enter', ctrlKey: true });
    expect(sent).toHaveLength(1);
  });

  it('deleting a highlight from the keyboard moves the focus to the next one, then to the message; Ctrl+Z undoes each, and Clear', async () => {
    const { events } = renderPanel(
      'message.annotation.job',
      complaint({
        lastTurn: turn(TEXT, [
          { start: 9, end: 19, extract: 'tummy ache', category: 'current_complaint' },
          { start: 27, end: 37, extract: 'back hurts', category: 'sx' },
        ]),
      }),
    );
    const tummy = () =>
      screen.queryByRole('button', { name: 'Delete Current complaint: tummy ache' });
    const back = () => screen.queryByRole('button', { name: 'Delete Symptom: back hurts' });
    await events.tab();
    expect(tummy()).toHaveFocus();
    await events.keyboard('{Enter}');
    expect(tummy()).not.toBeInTheDocument();
    expect(back()).toHaveFocus();
    await events.keyboard('{Enter}');
    expect(back()).not.toBeInTheDocument();
    expect(messageRegion()).toHaveFocus();
    await events.keyboard('{Control>}z{/Control}');
    expect(back()).toBeInTheDocument();
    expect(tummy()).not.toBeInTheDocument();
    await events.keyboard('{Control>}z{/Control}');
    expect(tummy()).toBeInTheDocument();

    await events.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.queryAllByRole('button', { name: /^Delete / })).toEqual([]);
    await events.keyboard('{Control>}z{/Control}');
    expect(tummy()).toBeInTheDocument();
    expect(back()).toBeInTheDocument();
  });

  it('Escape in the Intents submenu goes back one level; the submenu says where it is', async () => {
    const { events } = renderPanel('message.annotation.job', complaint());
    select('tummy ache');
    await events.keyboard(' ');
    await events.keyboard(digitOf('Intents'));
    expect(screen.getByRole('navigation', { name: 'Menu level' })).toHaveTextContent(
      'Categories › Intents',
    );
    expect(screen.getByText('Esc: back')).toBeInTheDocument();
    await events.keyboard('{Escape}');
    expect(screen.queryByRole('navigation', { name: 'Menu level' })).not.toBeInTheDocument();
    expect(menuItems()[0]).toBe('1Chief complaint');
    await events.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('digits pick the priority choices', async () => {
    const { sent, events } = renderPanel('intent.hpi.priority.job', {
      metadata: { xdhconvid: 'conv-3' },
      choices: [
        { id: 'c1', extract: 'repeat of my inhaler' },
        { id: 'c2', extract: 'a rash on my arm' },
      ],
    });
    const rash = screen.getByRole('radio', { name: 'a rash on my arm' });
    expect(rash).toHaveAttribute('aria-keyshortcuts', '2');
    await events.keyboard('2');
    expect(rash).toBeChecked();
    await events.keyboard(ctrlEnter);
    expect(sent[0]?.data).toMatchObject({ priority: 'c2' });
  });

  it('digits pick the rephrase options', async () => {
    const { events } = renderPanel(
      'message.annotation.job',
      complaint({
        slotUtteranceSpecification: {
          options: [
            ['q1', 'Where does it hurt?'],
            ['q2', 'Since when?'],
          ],
        },
      }),
    );
    await events.click(screen.getByRole('button', { name: 'Exception' }));
    await events.keyboard('2');
    expect(screen.getByRole('radio', { name: 'Since when?' })).toBeChecked();
  });

  it('Endorse, Deny and Unsure show their digits and answer to them on the older screen', async () => {
    const { sent, events } = renderPanel('message.annotation.job', {
      ...complaint(),
      slotSpecification: { code: 'fever', data_type: 'boolean', multiplicity: '0..1' },
      slot: { id: 'slot-fever', code: 'fever' },
      job: undefined,
    });
    const toggle = screen.getByRole('group', { name: 'Answer' });
    expect(
      within(toggle)
        .getAllByRole('button')
        .map((button) => [button.textContent, button.getAttribute('aria-keyshortcuts')]),
    ).toEqual([
      ['1Endorse', '1'],
      ['2Deny', '2'],
      ['3Unsure', '3'],
    ]);
    await events.keyboard('2');
    expect(within(toggle).getByRole('button', { name: 'Deny' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await events.keyboard(ctrlEnter);
    expect(sent[0]?.data).toMatchObject({ slot: { code: 'fever', value: 'deny' } });
  });
});
