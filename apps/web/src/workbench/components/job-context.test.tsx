import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../test/fake-server.ts';
import { JOB_ID, renderPanel, turn } from '../../test/panel-test-kit.tsx';
import { VERIFY_ANSWERED_INSTRUCTION } from './job-context.tsx';

const contextRoute = {
  [`GET /internal/quinn/jobs/${JOB_ID}/_context`]: () =>
    json(200, {
      patient: { firstName: 'Nora' },
      turns: [
        { direction: 'OUT', content: 'What brings you here?', createdOn: '2026-01-01T10:00:00Z' },
        { direction: 'IN', content: 'My throat is sore.', createdOn: '2026-01-01T10:01:00Z' },
        { direction: 'OUT', content: 'When did it start?', createdOn: '2026-01-01T10:02:00Z' },
        { direction: 'IN', content: 'Since Tuesday', createdOn: '2026-01-01T10:03:00Z' },
      ],
    }),
};
const onset = (purpose: string) => ({
  lastTurn: turn('Since Tuesday'),
  slotSpecification: { code: 'onset', short_description: 'onset', data_type: 'text' },
  slot: { id: 'slot-onset', code: 'onset' },
  job: { purpose },
});

describe('the job context above the panel (issue 20)', () => {
  it('names the patient and marks the last question among the earlier turns', async () => {
    const { events } = renderPanel('message.annotation.job', onset('full'), {
      routes: contextRoute,
    });
    const context = await screen.findByRole('complementary', { name: 'Context' });
    expect(context).toHaveTextContent('Patient: Nora');
    const turns = within(context).getByRole('list', { name: 'Earlier in the conversation' });
    const items = within(turns).getAllByRole('listitem');
    expect(items).toHaveLength(4);
    expect(items[2]).toHaveAttribute('aria-current', 'true');
    expect(items[2]).toHaveTextContent('Last question');
    // The message keeps the focus: the context does not take it.
    expect(screen.getByRole('region', { name: 'Message' })).toHaveFocus();
    await events.click(within(context).getByRole('button', { name: /Hide earlier/ }));
    expect(within(context).getByRole('button', { name: /Show earlier/ })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });

  it('says what verify-answered asks; a job without a recorded conversation shows no context', async () => {
    renderPanel('message.annotation.job', onset('verify-answered'));
    expect(await screen.findByRole('note')).toHaveTextContent(VERIFY_ANSWERED_INSTRUCTION);
    expect(screen.queryByText(/Patient:/)).not.toBeInTheDocument();
  });
});
