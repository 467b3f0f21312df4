import { HPI_CATEGORIES, INTENTS } from '@loopdesk/contracts/category-menus.ts';
import { describe, expect, it } from 'vitest';
import {
  annotationScreenOf,
  derivedCategories,
  intentCategoriesOf,
  messageMenu,
} from './category-menu.ts';
import { readMessageJob } from './job-data.ts';
import { paginate, type MenuEntry } from './menu.ts';

const job = (data: Record<string, unknown>) =>
  readMessageJob({
    lastTurn: { content: 'I have a headache' },
    slotSpecification: { code: 'onset', short_description: 'when it started', data_type: 'text' },
    slot: { id: 's-1', code: 'onset' },
    job: { purpose: 'full' },
    ...data,
  });

const labels = (entries: readonly MenuEntry[]) => entries.map((entry) => entry.label);
const hpiLabels = HPI_CATEGORIES.map((c) => c.label);

describe('which annotation screen shows a message job', () => {
  it.each([
    [
      'a job with a purpose gets the generic screen',
      { job: { purpose: 'full' } },
      false,
      'message-annotation',
    ],
    ['annotate-only too', { job: { purpose: 'annotate-only' } }, false, 'message-annotation'],
    [
      'a job without a purpose gets the older screen',
      { job: undefined },
      false,
      'legacy-annotation',
    ],
    [
      'an exception task gets the exception wording',
      { job: { purpose: 'full' } },
      true,
      'exception-annotation',
    ],
  ] as const)('%s', (_name, data, exception, screen) => {
    expect(annotationScreenOf(job(data), exception)).toBe(screen);
  });
});

describe('the hotkey menu of a message job (spec 1 §4, §9)', () => {
  it('lists the categories in the fixed order, the target and related slots among them, then the intents', () => {
    const menu = messageMenu(job({ relatedSlots: ['severity'] }));
    // The target's short_description names it, in sentence case.
    expect(labels(menu)).toEqual([
      ...hpiLabels.map((label) => (label === 'Onset' ? 'When it started' : label)),
      'Intents',
    ]);
    expect(menu.at(-1)).toEqual({
      label: 'Intents',
      next: INTENTS.map((intent) => ({ label: intent.label, category: intent.code })),
    });
  });

  it('steady hotkeys: the same entries offered get the same digits, whichever are related (issue 20)', () => {
    const chief = { code: 'chief_complaints', short_description: 'chief complaint' };
    const digits = (menu: readonly MenuEntry[]) =>
      paginate(menu).flatMap((page, index) =>
        page.map((item) => `${index + 1}:${item.hotkey} ${item.entry.label}`),
      );
    const headache = messageMenu(
      job({ slotSpecification: chief, relatedSlots: ['onset', 'associated_sx'] }),
    );
    const soreThroat = messageMenu(job({ slotSpecification: chief }));
    expect(digits(headache)).toEqual(digits(soreThroat));
    expect(digits(headache)).toContain('1:4 Onset');
    expect(digits(headache)).toContain('1:6 Associated symptom');
  });

  it('steady hotkeys: entries keep one relative order in every menu', () => {
    const order = (menu: readonly MenuEntry[]) =>
      menu.map((entry) => entry.category ?? entry.label);
    const full = order(messageMenu(job({ relatedSlots: ['allergy', 'sx', 'onset', 'my_slot'] })));
    const withContext = order(
      messageMenu(job({ relatedSlots: ['dx', 'location'] }), {
        menu: { associated_sx: null, onset: null, sx: null, Details: ['timing'] },
        derived: ['dx'],
      }),
    );
    const relative = (menu: string[], other: string[]) =>
      menu.filter((code) => other.includes(code));
    expect(relative(withContext, full)).toEqual(relative(full, withContext));
    // A job's own slot the fixed set does not know comes first, so that it is on page 1.
    expect(full[0]).toBe('my_slot');
  });

  it('puts the other slot specifications in a Slots submenu, first with fewer than 10 related entries', () => {
    const withSlots = messageMenu(
      job({ relatedSlotSpecifications: [{ code: 'location', short_description: 'where' }] }),
    );
    expect(withSlots[0]).toEqual({
      label: 'Slots',
      next: [{ label: 'Where', category: 'location' }],
    });
    const many = Array.from({ length: 10 }, (_, i) => `slot_${i}`);
    const crowded = messageMenu(
      job({
        relatedSlots: many,
        relatedSlotSpecifications: [{ code: 'location', short_description: 'where' }],
      }),
    );
    const slotsAt = crowded.findIndex((entry) => entry.label === 'Slots');
    expect(slotsAt).toBe(crowded.length - 1);
    expect((paginate(crowded)[0] ?? []).some((item) => item.entry.label === 'Slots')).toBe(false);
  });

  it("an intent's context menu replaces the HPI categories and adds its derived categories", () => {
    const contextMenu = {
      menu: { medication: null, Prescription: ['dose', 'frequency'] },
      derived: ['medication'],
    };
    const menu = messageMenu(job({}), contextMenu);
    expect(labels(menu)).toEqual(['When it started', 'Medication', 'Prescription', 'Intents']);
    expect(menu[1]).toEqual({ label: 'Medication', category: 'medication' });
    expect(menu[2]).toEqual({
      label: 'Prescription',
      next: [
        { label: 'Dose', category: 'dose' },
        { label: 'Frequency', category: 'frequency' },
      ],
    });
    expect(derivedCategories(contextMenu)).toEqual(['medication']);
    expect(derivedCategories(null)).toEqual([]);
  });

  it('on the generic screen a boolean slot is answered from the menu: Endorse, Deny, and Unsure when optional', () => {
    const fever = (multiplicity: string, purpose?: string) =>
      job({
        slotSpecification: { code: 'fever', data_type: 'boolean', multiplicity },
        slot: { id: 's-2', code: 'fever' },
        job: purpose === undefined ? undefined : { purpose },
      });
    expect(messageMenu(fever('0..1', 'full')).slice(0, 3)).toEqual([
      { label: 'Endorse', category: 'fever', presence: 'endorse' },
      { label: 'Deny', category: 'fever', presence: 'deny' },
      { label: 'Unsure', category: 'fever', presence: 'unsure' },
    ]);
    expect(labels(messageMenu(fever('1..1', 'full')).slice(0, 3))).toEqual([
      'Endorse',
      'Deny',
      'Fever',
    ]);
    // The older screen answers with its toggle, so its menu has no boolean entries.
    expect(labels(messageMenu(fever('0..1')))).not.toContain('Endorse');
  });

  it('the fixed intents count as intents', () => {
    expect(intentCategoriesOf()).toEqual(INTENTS.map((intent) => intent.code));
    expect(intentCategoriesOf()).toContain('urgent+hpi');
  });
});
