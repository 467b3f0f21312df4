import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DisclaimerDialog } from './disclaimer-dialog.tsx';

describe('disclaimer dialog', () => {
  it('cannot be dismissed by Escape or by clicking outside it', async () => {
    const onAgree = vi.fn();
    render(<DisclaimerDialog open termsUrl="https://example.com/terms" onAgree={onAgree} />);
    const user = userEvent.setup();
    const dialog = screen.getByRole('dialog', { name: 'Disclaimer' });

    await user.keyboard('{Escape}');
    expect(dialog).toBeVisible();

    const backdrop = document.querySelector('.MuiBackdrop-root');
    expect(backdrop).not.toBeNull();
    await user.click(backdrop as Element);
    expect(screen.getByRole('dialog', { name: 'Disclaimer' })).toBeVisible();
    expect(onAgree).not.toHaveBeenCalled();
  });

  it('links the Terms of Use and reports Agree', async () => {
    const onAgree = vi.fn();
    render(<DisclaimerDialog open termsUrl="https://example.com/terms" onAgree={onAgree} />);
    expect(screen.getByRole('link', { name: 'Terms of Use' })).toHaveAttribute(
      'href',
      'https://example.com/terms',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Agree' }));
    expect(onAgree).toHaveBeenCalledOnce();
  });
});
