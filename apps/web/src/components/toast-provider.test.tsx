import { TOAST_MS } from '@loopdesk/contracts/portal-routes.ts';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useToast } from './toast-context.ts';
import { ToastProvider } from './toast-provider.tsx';

function Harness() {
  const toast = useToast();
  return (
    <>
      <button onClick={() => toast.success('Saved.')}>Save</button>
      <button onClick={() => toast.error('Bad Request - name is required')}>Fail</button>
    </>
  );
}

function renderHarness() {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  render(
    <ToastProvider>
      <Harness />
    </ToastProvider>,
  );
  return userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
}

describe('toasts', () => {
  it('hide by themselves after 6 seconds', async () => {
    const user = renderHarness();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Saved.');

    await act(() => vi.advanceTimersByTimeAsync(TOAST_MS - 100));
    expect(screen.getByRole('alert')).toHaveTextContent('Saved.');

    // At 6 s the toast closes; its exit transition then runs.
    await act(() => vi.advanceTimersByTimeAsync(100));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('can be closed with their Close button', async () => {
    const user = renderHarness();
    await user.click(screen.getByRole('button', { name: 'Fail' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Bad Request - name is required');

    await user.click(screen.getByRole('button', { name: 'Close' }));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('show at the bottom centre, a new one replacing the last', async () => {
    const user = renderHarness();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(screen.getByRole('button', { name: 'Fail' }));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('alert')).toHaveTextContent('Bad Request - name is required');
    expect(screen.getByRole('presentation')).toHaveClass('MuiSnackbar-anchorOriginBottomCenter');
  });
});
