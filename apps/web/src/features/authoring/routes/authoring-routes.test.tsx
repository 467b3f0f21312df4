import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AuthoringJob } from '@loopdesk/contracts/routes/authoring.ts';
import {
  callsOf,
  errorAnswer,
  json,
  makeUser,
  type FakeRequest,
} from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { CHIP_COLOURS, MESSAGES } from '../model/annotations.ts';

vi.setConfig({ testTimeout: 30_000 });

const ANN = makeUser(['annotator'], { id: 'user-ann', email: 'ann@example.com' });
const KEY = '0b7c6d2e-1111-4a4a-8b8b-000000000001';
const TEXT = 'Asthma causes wheeze and cough at night.';
const E1 = '11111111-1111-4111-8111-111111111111';

const job = (over: Partial<AuthoringJob> = {}): AuthoringJob => ({
  key: KEY,
  code: 'asthma-0b7c6d2e',
  displayName: 'Asthma guideline',
  source: 'NICE',
  status: 'DOCUMENT_APPROVED',
  jobType: 'annotation',
  provenance: [{ source: 'NICE' }],
  preparedText: TEXT,
  documentConcept: null,
  annotations: null,
  annotationsDraft: null,
  draftRestorable: false,
  version: 3,
  holder: null,
  annotatedBy: null,
  review: null,
  ...over,
});

const RECOGNITION = {
  entities: [
    {
      start: 14,
      end: 20,
      original: 'wheeze',
      concepts: [{ coding: { display: 'Wheezing', code: 'C0043144' }, bestMatch: true }],
      semanticTypes: ['Sign or Symptom'],
    },
  ],
};

const CONCEPTS = {
  results: [
    {
      name: 'Cough',
      conceptId: 'kb-cough',
      relevance: 1,
      types: ['Sign or Symptom'],
      sources: [{ system: 'UMLS', code: 'C0010200' }],
    },
  ],
};

const LIST = {
  items: [
    {
      key: KEY,
      code: 'asthma-0b7c6d2e',
      displayName: 'Asthma guideline',
      source: 'NICE',
      status: 'DOCUMENT_APPROVED',
      jobType: 'annotation',
      holder: null,
      updatedOn: '2026-11-26T10:00:00.000Z',
    },
    {
      key: 'prep-1',
      code: 'copd',
      displayName: 'COPD guideline',
      source: 'BTS',
      status: 'PREPARED_FOR_REVIEW',
      jobType: 'preparation review',
      holder: null,
      updatedOn: '2026-11-26T10:00:00.000Z',
    },
  ],
};

function routes(current: AuthoringJob, sent: FakeRequest[], over = {}) {
  return {
    'GET /internal/authoring/jobs': () => json(200, LIST),
    [`POST /internal/authoring/jobs/${KEY}/_take`]: () => json(200, current),
    [`POST /internal/authoring/jobs/${KEY}/_release`]: () => json(200, current),
    [`GET /internal/authoring/jobs/${KEY}`]: () => json(200, current),
    'POST /internal/nlp/entities': () => json(200, RECOGNITION),
    'GET /internal/data-preparation/query/umls_view': () => json(200, CONCEPTS),
    [`POST /internal/authoring/jobs/${KEY}/draft`]: (request: FakeRequest) => {
      sent.push(request);
      return json(200, { ...current, status: 'ANNOTATED_DRAFT' });
    },
    [`POST /internal/authoring/jobs/${KEY}/submit`]: (request: FakeRequest) => {
      sent.push(request);
      return json(200, { ...current, status: 'ANNOTATED_FOR_REVIEW' });
    },
    ...over,
  };
}

const location = () => screen.getByLabelText('Current location').textContent;
const chips = () => Array.from(document.querySelectorAll<HTMLElement>('mark[data-entity-id]'));
const textArea = () => screen.findByRole('document', { name: /Document text/ });

describe('Authoring Tasks list (spec 2 §2)', () => {
  it('shows the columns; a row takes the job once however often it is clicked, then opens it', async () => {
    let answer: (value: Response) => void = () => undefined;
    const { events, fetchMock } = renderApp({
      path: '/jobs/authoring-tasks',
      user: ANN,
      routes: {
        ...routes(job(), []),
        [`POST /internal/authoring/jobs/${KEY}/_take`]: () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      },
    });
    const table = await screen.findByRole('table', { name: 'Authoring tasks' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Document Name', 'Document Source', 'Job Type']);
    const row = await within(table).findByRole('row', { name: /Asthma guideline, annotation/ });
    await events.click(row);
    await events.click(row);
    expect(callsOf(fetchMock).filter((c) => c.endsWith('/_take'))).toHaveLength(1);
    act(() => answer(json(200, job())));
    await waitFor(() => expect(location()).toBe(`/jobs/authoring-tasks/${KEY}`));
    expect(await screen.findByRole('heading', { name: 'Asthma guideline' })).toBeTruthy();
    expect(callsOf(fetchMock).filter((c) => c.endsWith('/_take'))).toHaveLength(1);
  });

  it('opens a preparation review row in the data preparation review screen', async () => {
    const { events } = renderApp({
      path: '/jobs/authoring-tasks',
      user: makeUser(['annotator', 'experimental'], { id: 'user-eve', email: 'eve@example.com' }),
      routes: routes(job(), []),
    });
    await events.click(await screen.findByRole('row', { name: /COPD guideline/ }));
    await waitFor(() => expect(location()).toBe('/jobs/data-preparation/prep-1'));
  });
});

describe('Authoring Tasks list: only rows the user may open', () => {
  it('does not list a preparation review to an annotator, who could not open it', async () => {
    renderApp({ path: '/jobs/authoring-tasks', user: ANN, routes: routes(job(), []) });
    const table = await screen.findByRole('table', { name: 'Authoring tasks' });
    expect(await within(table).findByRole('row', { name: /Asthma guideline/ })).toBeTruthy();
    expect(within(table).queryByRole('row', { name: /COPD guideline/ })).toBeNull();
  });
});

describe('Annotation Task screen (spec 2 §2, §4, §5, §8)', () => {
  it('applies recognition in the automated colour, and unchecking removes it', async () => {
    const { events } = renderApp({
      path: `/jobs/authoring-tasks/${KEY}`,
      user: ANN,
      routes: routes(job(), []),
    });
    await textArea();
    expect(screen.getByRole('list', { name: 'Legend' }).textContent).toBe(
      'AutomatedManualAnnotated',
    );
    const box = screen.getByRole('checkbox', { name: 'Apply automated named entity recognition' });
    await events.click(box);
    await waitFor(() => expect(chips()).toHaveLength(1));
    expect(chips()[0]?.textContent).toBe('wheeze');
    expect(chips()[0]?.style.backgroundColor).toBe('rgb(98, 0, 238)'); // #6200EE
    expect(CHIP_COLOURS.automated).toBe('#6200EE');
    await events.click(box);
    expect(chips()).toHaveLength(0);
  });

  it('says so when recognition fails, and the checkbox clears', async () => {
    const { events } = renderApp({
      path: `/jobs/authoring-tasks/${KEY}`,
      user: ANN,
      routes: routes(job(), [], {
        'POST /internal/nlp/entities': () => errorAnswer(502, 'Bad Gateway', 'down'),
      }),
    });
    await textArea();
    const box = screen.getByRole('checkbox', { name: 'Apply automated named entity recognition' });
    await events.click(box);
    expect(await screen.findByText(MESSAGES.recognitionFailed)).toBeTruthy();
    expect((box as HTMLInputElement).checked).toBe(false);
    expect(screen.queryByLabelText('Recognising entities')).toBeNull();
  });

  it('annotates from the keyboard: Shift+arrows, a digit, Enter, concept, save; submits', async () => {
    const sent: FakeRequest[] = [];
    const { events } = renderApp({
      path: `/jobs/authoring-tasks/${KEY}`,
      user: ANN,
      routes: routes(job(), sent),
    });
    const text = await textArea();
    act(() => text.focus());
    // 'cough' is at 25-30: move there, select five characters.
    await events.keyboard('{Control>}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{/Control}');
    await events.keyboard('{ArrowRight}');
    await events.keyboard(
      '{Shift>}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{/Shift}',
    );
    const menu = await screen.findByRole('menu', { name: 'Categories' });
    expect(within(menu).getAllByRole('menuitem')).toHaveLength(9);
    await events.keyboard('7'); // Symptom
    await waitFor(() => expect(chips()).toHaveLength(1));
    expect(chips()[0]?.textContent).toBe('cough');
    expect(chips()[0]?.dataset.state).toBe('manual');

    // Incomplete: submit is refused with the spec's message.
    await events.click(screen.getByRole('button', { name: 'SUBMIT DOCUMENT' }));
    expect(await screen.findByText(MESSAGES.incomplete)).toBeTruthy();
    expect(sent).toHaveLength(0);

    // The caret sits on the new entity: Enter opens its form.
    act(() => text.focus());
    await events.keyboard('{Enter}');
    const form = await screen.findByRole('dialog', { name: /Edit “cough”/ });
    await events.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByText('Choose a concept: it sets the CUI.')).toBeTruthy();
    await events.type(within(form).getByRole('combobox', { name: 'Concept' }), 'cou');
    await events.click(await screen.findByRole('option', { name: /Cough/ }));
    expect(within(form).getByRole<HTMLInputElement>('textbox', { name: 'CUI' }).value).toBe(
      'C0010200',
    );
    await events.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(chips()[0]?.dataset.state).toBe('annotated'));
    const table = screen.getByRole('table', { name: 'Annotated entities' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Entity', 'Category', 'Weight', 'Delete']);
    await events.type(within(table).getByRole('textbox', { name: 'Weight of cough' }), '0.9');

    await events.click(screen.getByRole('button', { name: 'SUBMIT DOCUMENT' }));
    expect(await screen.findByText(MESSAGES.submitted)).toBeTruthy();
    await waitFor(() => expect(location()).toBe('/jobs/authoring-tasks'));
    await screen.findByRole('row', { name: /Asthma guideline, annotation/ });
    expect(sent[0]?.body).toMatchObject({
      version: 3,
      annotations: {
        entities: [
          {
            start: 25,
            end: 30,
            extract: 'cough',
            category: 'Symptom',
            CUI: 'C0010200',
            conceptName: 'Cough',
            TUI: [{ tui: 'T184', description: 'Sign or Symptom' }],
          },
        ],
        relationships: [{ entity: 'cough', category: 'SYMPTOM', weight: '0.9' }],
        provenance: { system: 'decoded-portal' },
      },
    });
  });

  it('refuses a selection over an entity, deletes with the question, and works by mouse', async () => {
    const draft = {
      entities: [
        {
          id: E1,
          start: 14,
          end: 20,
          extract: 'wheeze',
          category: 'Sign' as const,
          TUI: [],
          state: 'manual' as const,
        },
      ],
      relationships: [],
      provenance: { source: 'x', createdOn: '2026-11-26T10:00:00.000Z', system: 'decoded-portal' },
    };
    const { events } = renderApp({
      path: `/jobs/authoring-tasks/${KEY}`,
      user: ANN,
      routes: routes(
        job({ status: 'ANNOTATED_DRAFT', annotationsDraft: draft, draftRestorable: true }),
        [],
      ),
    });
    const text = await textArea();
    await waitFor(() => expect(chips()).toHaveLength(1));
    // A restored draft disables recognition.
    expect(
      screen.getByRole<HTMLInputElement>('checkbox', {
        name: 'Apply automated named entity recognition',
      }).disabled,
    ).toBe(true);
    act(() => text.focus());
    await events.keyboard('{Control>}{ArrowRight}{ArrowRight}{/Control}');
    await events.keyboard('{Shift>}{Control>}{ArrowRight}{/Control}{/Shift}');
    expect(await screen.findByText(MESSAGES.exists)).toBeTruthy();
    expect(screen.queryByRole('menu')).toBeNull();

    // Double-click opens the form; Escape closes it.
    fireEvent.doubleClick(chips()[0] as HTMLElement);
    await screen.findByRole('dialog', { name: /Edit “wheeze”/ });
    await events.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /Edit/ })).toBeNull());

    // Delete from the keyboard: the caret is on the entity after a click.
    fireEvent.click(chips()[0] as HTMLElement, { detail: 1 });
    act(() => text.focus());
    await events.keyboard('{Delete}');
    const confirm = await screen.findByRole('dialog', { name: 'Delete annotation' });
    expect(within(confirm).getByText(MESSAGES.confirmDelete)).toBeTruthy();
    await events.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(chips()).toHaveLength(0));
  });

  it('does not restore a draft another system wrote', async () => {
    const draft = {
      entities: [
        { id: E1, start: 14, end: 20, extract: 'wheeze', TUI: [], state: 'manual' as const },
      ],
      relationships: [],
      provenance: { source: 'x', createdOn: '2026-11-26T10:00:00.000Z', system: 'other-tool' },
    };
    renderApp({
      path: `/jobs/authoring-tasks/${KEY}`,
      user: ANN,
      routes: routes(
        job({ status: 'ANNOTATED_DRAFT', annotationsDraft: draft, draftRestorable: false }),
        [],
      ),
    });
    await textArea();
    expect(chips()).toHaveLength(0);
  });

  it('saves a draft; a 409 keeps the work on screen and says what happened from its current job', async () => {
    const sent: FakeRequest[] = [];
    let conflict = true;
    const { events, fetchMock } = renderApp({
      path: `/jobs/authoring-tasks/${KEY}`,
      user: ANN,
      routes: routes(job(), sent, {
        [`POST /internal/authoring/jobs/${KEY}/draft`]: (request: FakeRequest) => {
          sent.push(request);
          return conflict
            ? json(409, {
                error: 'Conflict',
                message: 'Someone saved this document since you opened it.',
                current: job({
                  status: 'ANNOTATED_DRAFT',
                  jobType: 'annotation draft',
                  version: 4,
                }),
              })
            : json(200, job({ status: 'ANNOTATED_DRAFT' }));
        },
      }),
    });
    await textArea();
    await events.click(screen.getByRole('checkbox', { name: /Apply automated/ }));
    await waitFor(() => expect(chips()).toHaveLength(1));
    await events.click(screen.getByRole('button', { name: 'SAVE AS DRAFT' }));
    const alert = await screen.findByText(/Someone saved this document since you opened it\./);
    expect(alert.textContent).toContain('It is now annotation draft.');
    expect(alert.textContent).toContain('Your annotations are still on this screen');
    // The answer said it all: the job is not read again.
    expect(callsOf(fetchMock)).not.toContain(`GET /internal/authoring/jobs/${KEY}`);
    expect(chips()).toHaveLength(1);
    expect(location()).toBe(`/jobs/authoring-tasks/${KEY}`);
    await events.click(await screen.findByRole('button', { name: 'Keep mine' }));
    conflict = false;
    await events.click(screen.getByRole('button', { name: 'SAVE AS DRAFT' }));
    expect(await screen.findByText(MESSAGES.drafted)).toBeTruthy();
    await waitFor(() => expect(location()).toBe('/jobs/authoring-tasks'));
    expect(sent.map((r) => (r.body as { version: number }).version)).toEqual([3, 4]);
    expect(sent[1]?.body).toMatchObject({
      annotations: { entities: [{ extract: 'wheeze', state: 'automated' }] },
    });
  });

  it("a 409 for someone else's hold names them and offers no 'Keep mine'; the work stays", async () => {
    const { events } = renderApp({
      path: `/jobs/authoring-tasks/${KEY}`,
      user: ANN,
      routes: routes(job(), [], {
        [`POST /internal/authoring/jobs/${KEY}/draft`]: () =>
          json(409, {
            error: 'Conflict',
            message: 'bob@example.com is annotating this document.',
            current: job({
              holder: {
                userId: 'user-bob',
                email: 'bob@example.com',
                until: '2026-11-26T11:00:00.000Z',
                purpose: 'annotation',
              },
            }),
            holder: {
              userId: 'user-bob',
              email: 'bob@example.com',
              until: '2026-11-26T11:00:00.000Z',
              purpose: 'annotation',
            },
          }),
      }),
    });
    await textArea();
    await events.click(screen.getByRole('checkbox', { name: /Apply automated/ }));
    await waitFor(() => expect(chips()).toHaveLength(1));
    await events.click(screen.getByRole('button', { name: 'SAVE AS DRAFT' }));
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert.textContent).toContain('It is held by bob@example.com.'));
    expect(alert.textContent).toContain('nothing was saved');
    expect(within(alert).queryByRole('button', { name: 'Keep mine' })).toBeNull();
    expect(chips()).toHaveLength(1);
  });

  it('a 409 without the job (an answer of another shape) still keeps the work and says the message', async () => {
    const { events } = renderApp({
      path: `/jobs/authoring-tasks/${KEY}`,
      user: ANN,
      routes: routes(job(), [], {
        [`POST /internal/authoring/jobs/${KEY}/draft`]: () =>
          errorAnswer(409, 'Conflict', 'Already processing previous submission.'),
      }),
    });
    await textArea();
    await events.click(screen.getByRole('checkbox', { name: /Apply automated/ }));
    await waitFor(() => expect(chips()).toHaveLength(1));
    await events.click(screen.getByRole('button', { name: 'SAVE AS DRAFT' }));
    const alert = await screen.findByText(/Already processing previous submission\./);
    expect(alert.textContent).toContain('Your annotations are still on this screen');
    expect(screen.queryByRole('button', { name: 'Keep mine' })).toBeNull();
    expect(chips()).toHaveLength(1);
  });

  it('resets everything and re-enables recognition; ? lists the keys', async () => {
    const { events } = renderApp({
      path: `/jobs/authoring-tasks/${KEY}`,
      user: ANN,
      routes: routes(job(), []),
    });
    const text = await textArea();
    const box = screen.getByRole('checkbox', { name: /Apply automated/ });
    await events.click(box);
    await waitFor(() => expect(chips()).toHaveLength(1));
    await events.click(screen.getByRole('button', { name: 'RESET ANNOTATIONS' }));
    expect(chips()).toHaveLength(0);
    expect((box as HTMLInputElement).disabled).toBe(false);
    expect((box as HTMLInputElement).checked).toBe(false);
    act(() => text.focus());
    await events.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByText('Shift + arrow keys')).toBeTruthy();
    await events.click(within(help).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(text).toHaveFocus());
  });
});
