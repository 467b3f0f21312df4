import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PageTitleContext } from '../lib/page-title.ts';
import { NOT_AVAILABLE_MESSAGE, NotAvailablePage } from './not-available-page.tsx';

// Every screen of the route table is built today, so no route reaches this page in the
// end-to-end tests; it stays for screens the spec adds later, and this test keeps it honest.
describe('not-available page', () => {
  it('says plainly that the screen is not available yet and puts its title in the top bar', () => {
    const setTitle = vi.fn();
    render(
      <PageTitleContext.Provider value={setTitle}>
        <NotAvailablePage title="Later Screen" />
      </PageTitleContext.Provider>,
    );
    expect(NOT_AVAILABLE_MESSAGE).toBe('This screen is not available yet.');
    expect(screen.getByText('This screen is not available yet.')).toBeVisible();
    expect(setTitle).toHaveBeenCalledWith('Later Screen');
  });
});
