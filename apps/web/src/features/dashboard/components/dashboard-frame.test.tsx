import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorAnswer, json, makeUser } from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';

const medical = makeUser(['medical']);

describe('the analytics dashboard of / (spec 3 §2, issue 16)', () => {
  it('is busy until the address arrives, then fills the screen with the embedded page', async () => {
    let answer: (response: Response) => void = () => undefined;
    renderApp({
      user: medical,
      routes: {
        'GET /internal/analytics/dashboard': () => new Promise((resolve) => (answer = resolve)),
      },
    });
    expect(await screen.findByRole('progressbar', { name: 'Loading dashboard' })).toBeVisible();
    answer(json(200, { url: 'https://bi.example.com/embed/dashboard/abc#theme=night' }));
    const frame = await screen.findByTitle('Analytics dashboard');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('src', 'https://bi.example.com/embed/dashboard/abc#theme=night');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it("says 'Error loading dashboard - ' and the error when the address cannot be had", async () => {
    renderApp({
      user: medical,
      routes: {
        'GET /internal/analytics/dashboard': () =>
          errorAnswer(503, 'Service Unavailable', 'The database is not reachable.'),
      },
    });
    const text = 'Error loading dashboard - Service Unavailable - The database is not reachable.';
    const shown = await screen.findAllByText(text);
    // The toast of spec 3 §8, and the same words where the frame would be.
    expect(shown).toHaveLength(2);
    expect(screen.queryByTitle('Analytics dashboard')).not.toBeInTheDocument();
  });
});
