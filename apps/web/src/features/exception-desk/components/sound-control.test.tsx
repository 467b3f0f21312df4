import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetAudioContext } from '../../../lib/sound/audio-context.ts';
import { SoundControl } from './sound-control.tsx';

/** An audio context the browser keeps suspended until resumed from a click. */
function blockedAudio() {
  class FakeAudioContext extends EventTarget {
    state: AudioContextState = 'suspended';
    resume() {
      this.state = 'running';
      this.dispatchEvent(new Event('statechange'));
      return Promise.resolve();
    }
  }
  vi.stubGlobal('AudioContext', FakeAudioContext);
}

describe('SoundControl', () => {
  afterEach(() => {
    // Unmounted first, so that forgetting the context renders nothing more.
    cleanup();
    vi.unstubAllGlobals();
    resetAudioContext();
  });

  it('offers "Enable sound" while the browser blocks sound; one click allows it and says so', async () => {
    blockedAudio();
    render(<SoundControl />);
    await act(() => userEvent.click(screen.getByRole('button', { name: 'Enable sound' })));
    expect(await screen.findByText('Sound is on.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Enable sound' })).not.toBeInTheDocument();
  });

  it('shows nothing when sound is allowed already', () => {
    class RunningAudioContext extends EventTarget {
      state: AudioContextState = 'running';
    }
    vi.stubGlobal('AudioContext', RunningAudioContext);
    const { container } = render(<SoundControl />);
    expect(container).toBeEmptyDOMElement();
  });
});
