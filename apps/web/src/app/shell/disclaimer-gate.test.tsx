import { render, screen, waitForElementToBeRemoved } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DisclaimerGate } from './disclaimer-gate.tsx';

describe('disclaimer after sign-in', () => {
  it('disappears after Agree and stays away for that user only', async () => {
    const first = render(<DisclaimerGate userId="ann" termsUrl="" ready />);
    const user = userEvent.setup();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Disclaimer' })).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Agree' }));
    await waitForElementToBeRemoved(() => screen.queryByRole('dialog', { name: 'Disclaimer' }));
    first.unmount();

    // Ann signs in again: no disclaimer. Bob, on the same browser, still gets it.
    const again = render(<DisclaimerGate userId="ann" termsUrl="" ready />);
    expect(screen.queryByRole('dialog', { name: 'Disclaimer' })).not.toBeInTheDocument();
    again.unmount();
    render(<DisclaimerGate userId="bob" termsUrl="" ready />);
    expect(screen.getByRole('dialog', { name: 'Disclaimer' })).toBeVisible();
  });

  it('waits until the portal settings are known', () => {
    render(<DisclaimerGate userId="ann" termsUrl="" ready={false} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
