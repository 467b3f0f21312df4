import { TOAST_MS } from '@loopdesk/contracts/portal-routes.ts';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { JobToasts } from './job-toasts.tsx';
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

  it('tied to a job, close when the job is replaced; other toasts stay', async () => {
    function Job({ id }: { id: string }) {
      const toast = useToast();
      return <button onClick={() => toast.error(`Problem with ${id}`)}>Check {id}</button>;
    }
    function Screen({ job }: { job: string | null }) {
      const toast = useToast();
      return (
        <>
          <button onClick={() => toast.error('Websocket closed abnormally.')}>Drop</button>
          {job ? (
            <JobToasts key={job} job={job}>
              <Job id={job} />
            </JobToasts>
          ) : null}
        </>
      );
    }
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { rerender } = render(
      <ToastProvider>
        <Screen job="job-1" />
      </ToastProvider>,
    );
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await user.click(screen.getByRole('button', { name: 'Check job-1' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Problem with job-1');

    rerender(
      <ToastProvider>
        <Screen job="job-2" />
      </ToastProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    // A toast not tied to the job stays when the job goes.
    await user.click(screen.getByRole('button', { name: 'Drop' }));
    rerender(
      <ToastProvider>
        <Screen job={null} />
      </ToastProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByRole('alert')).toHaveTextContent('Websocket closed abnormally.');
  });
});
