import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorAnswer, json, makeUser } from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { evaluation, requestsTo } from '../../../test/features/test-tools/fixtures.ts';

const TEXT = 'cough and hives since monday';

const RESOLVED = {
  resolvedEntities: [
    { original: 'cough', normalised: [{ id: 'LD:cough', display: 'cough' }] },
    ' and ',
    {
      original: 'hives',
      normalised: [
        { id: 'LD:hives', display: 'hives' },
        { id: 'LD:urticaria', display: 'urticaria' },
      ],
    },
    ' ',
    { original: 'since monday', normalised: [] },
  ],
  resolvedPhrases: [
    {
      original: 'cough and hives since monday',
      normalised: [{ id: 'LD:cough', display: 'cough' }],
    },
  ],
};

const medical = makeUser(['medical']);
const title = () => screen.getByRole('banner');

describe('entity recognition test tool', { timeout: 20_000 }, () => {
  // The router loads the screen lazily: compile it once up front, not inside a test's wait.
  beforeAll(async () => {
    await import('./entity-recognition-route.tsx');
  });

  it('evaluates the text with the versioned NLP media type and shows entities and phrases as chips', async () => {
    const { events, fetchMock } = renderApp({
      path: '/test/entity-recognition',
      user: medical,
      routes: { 'POST /internal/nlp/evaluate': () => json(200, evaluation(TEXT, RESOLVED)) },
    });
    const input = await screen.findByRole('textbox', { name: 'Input Text' });
    await waitFor(() => expect(title()).toHaveTextContent('Entity Recognition'));
    expect(input).toHaveAttribute('placeholder', 'Enter text here');
    expect(input).toHaveAttribute('rows', '6');
    expect(screen.queryByText('Named Entity Recognition Result')).not.toBeInTheDocument();

    await events.type(input, TEXT);
    await events.click(screen.getByRole('button', { name: 'SUBMIT TEXT' }));

    const result = await screen.findByRole('region', { name: 'Named Entity Recognition Result' });
    const [call] = requestsTo(fetchMock, '/internal/nlp/evaluate');
    expect(call?.body).toEqual({ text: TEXT });
    expect(call?.headers.get('Accept')).toBe('application/vnd.loopdesk.nlp+json; version=0.1.0');
    const legend = within(result).getByRole('group', { name: 'Legend' });
    expect(within(legend).getByText('Recognised Entity')).toBeInTheDocument();
    expect(within(legend).getByText('Normalised Entity')).toBeInTheDocument();

    const entities = within(result).getByRole('region', { name: 'Entities' });
    expect(entities).toHaveTextContent('cough and hives since monday');
    expect(within(entities).getByText('hives')).toBeInTheDocument();

    await events.hover(within(entities).getByText('hives'));
    // Each concept with its code (issue 20 #26).
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'Concept: hives · Code: LD:hivesConcept: urticaria · Code: LD:urticaria',
    );
    await events.unhover(within(entities).getByText('hives'));
    await events.hover(within(entities).getByText('since monday'));
    await waitFor(() =>
      expect(screen.getByRole('tooltip')).toHaveTextContent('No matched concepts'),
    );

    await events.click(within(result).getByRole('button', { name: 'Phrases' }));
    const phrases = within(result).getByRole('region', { name: 'Phrases' });
    expect(within(phrases).getByText('cough and hives since monday')).toBeInTheDocument();
    expect(within(result).queryByRole('region', { name: 'Entities' })).not.toBeInTheDocument();
    await events.click(within(result).getByRole('button', { name: 'Entities' }));
    expect(within(result).getByRole('region', { name: 'Entities' })).toBeInTheDocument();
  });

  it("shows 'Service unavailable' when the evaluation fails, and no stale result", async () => {
    let fail = false;
    const { events } = renderApp({
      path: '/test/entity-recognition',
      user: medical,
      routes: {
        'POST /internal/nlp/evaluate': () =>
          fail
            ? errorAnswer(503, 'Service Unavailable', 'down')
            : json(
                200,
                evaluation('fever', {
                  resolvedEntities: [
                    { original: 'fever', normalised: [{ id: 'LD:fever', display: 'fever' }] },
                  ],
                }),
              ),
      },
    });
    await events.type(await screen.findByRole('textbox', { name: 'Input Text' }), 'fever');
    await events.click(screen.getByRole('button', { name: 'SUBMIT TEXT' }));
    expect(
      await screen.findByRole('region', { name: 'Named Entity Recognition Result' }),
    ).toBeInTheDocument();

    fail = true;
    await events.type(screen.getByRole('textbox', { name: 'Input Text' }), ' and cough');
    await events.click(screen.getByRole('button', { name: 'SUBMIT TEXT' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Service unavailable');
    expect(
      screen.queryByRole('region', { name: 'Named Entity Recognition Result' }),
    ).not.toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'SUBMIT TEXT' })).toBeEnabled();
  });

  it('shows why the server refused a text (empty, too long) instead of Service unavailable', async () => {
    const { events } = renderApp({
      path: '/test/entity-recognition',
      user: medical,
      routes: {
        'POST /internal/nlp/evaluate': (request) =>
          (request.body as { text: string }).text === ''
            ? errorAnswer(400, 'Bad Request', 'Invalid body: body.text must not be empty')
            : errorAnswer(
                413,
                'Payload Too Large',
                'The text is 20001 characters long; the NLP service takes at most 20000 characters (NLP_MAX_TEXT_CHARS).',
              ),
      },
    });
    await events.click(await screen.findByRole('button', { name: 'SUBMIT TEXT' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Bad Request - Invalid body: body.text must not be empty',
    );
    expect(screen.queryByText('Service unavailable')).not.toBeInTheDocument();
    await events.click(within(screen.getByRole('alert')).getByRole('button'));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());

    await events.type(screen.getByRole('textbox', { name: 'Input Text' }), 'fever');
    await events.click(screen.getByRole('button', { name: 'SUBMIT TEXT' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Payload Too Large - The text is 20001 characters long',
    );
  });

  it('opens the tooltip of a chip from the keyboard', async () => {
    const { events } = renderApp({
      path: '/test/entity-recognition',
      user: medical,
      routes: { 'POST /internal/nlp/evaluate': () => json(200, evaluation(TEXT, RESOLVED)) },
    });
    await events.type(await screen.findByRole('textbox', { name: 'Input Text' }), TEXT);
    await events.click(screen.getByRole('button', { name: 'SUBMIT TEXT' }));
    const entities = await screen.findByRole('region', { name: 'Entities' });
    // Tab on from SUBMIT TEXT, past the toggle's buttons, to the first chip.
    const chip = within(entities).getByText('cough').closest('[tabindex]');
    expect(chip).toHaveAttribute('tabindex', '0');
    for (let presses = 0; presses < 10 && document.activeElement !== chip; presses++) {
      await events.tab();
    }
    expect(chip).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('cough');
  });
});
