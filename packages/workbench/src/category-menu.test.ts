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
  it('lists the target slot, the related slots, the intents, then the fixed HPI categories', () => {
    const menu = messageMenu(job({ relatedSlots: ['severity'] }));
    expect(menu.slice(0, 3)).toEqual([
      { label: 'when it started', category: 'onset' },
      { label: 'Severity', category: 'severity' },
      {
        label: 'Intents',
        next: INTENTS.map((intent) => ({ label: intent.label, category: intent.code })),
      },
    ]);
    // The fixed categories follow, without the ones already listed (the target and severity).
    expect(labels(menu.slice(3))).toEqual(
      hpiLabels.filter((label) => label !== 'Onset' && label !== 'Severity'),
    );
  });

  it('puts the other slot specifications in a Slots submenu, first with fewer than 10 related entries', () => {
    const withSlots = messageMenu(
      job({ relatedSlotSpecifications: [{ code: 'location', short_description: 'where' }] }),
    );
    expect(withSlots[0]).toEqual({
      label: 'Slots',
      next: [{ label: 'where', category: 'location' }],
    });
    const many = Array.from({ length: 10 }, (_, i) => `slot_${i}`);
    const crowded = messageMenu(
      job({
        relatedSlots: many,
        relatedSlotSpecifications: [{ code: 'location', short_description: 'where' }],
      }),
    );
    const slotsAt = crowded.findIndex((entry) => entry.label === 'Slots');
    expect(slotsAt).toBe(11);
    expect((paginate(crowded)[0] ?? []).some((item) => item.entry.label === 'Slots')).toBe(false);
  });

  it("an intent's context menu replaces the HPI categories and adds its derived categories", () => {
    const contextMenu = {
      menu: { medication: null, Prescription: ['dose', 'frequency'] },
      derived: ['medication'],
    };
    const menu = messageMenu(job({}), contextMenu);
    expect(labels(menu)).toEqual(['when it started', 'Medication', 'Intents', 'Prescription']);
    expect(menu[1]).toEqual({ label: 'Medication', category: 'medication' });
    expect(menu[3]).toEqual({
      label: 'Prescription',
      next: [
        { label: 'dose', category: 'dose' },
        { label: 'frequency', category: 'frequency' },
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
      'fever',
    ]);
    // The older screen answers with its toggle, so its menu has no boolean entries.
    expect(labels(messageMenu(fever('0..1')))).not.toContain('Endorse');
  });

  it('the fixed intents count as intents', () => {
    expect(intentCategoriesOf()).toEqual(INTENTS.map((intent) => intent.code));
    expect(intentCategoriesOf()).toContain('urgent+hpi');
  });
});
