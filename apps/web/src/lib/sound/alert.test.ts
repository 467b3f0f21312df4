import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ALERT_STALE_MS, ALERT_TONE, playAlert, resetAlert } from './alert.ts';

/** Records the oscillators started, like a speaker would hear them. */
function fakeAudio(initial: AudioContextState, resume: () => Promise<void>) {
  const started: { frequency: number; at: number }[] = [];
  let constructed = 0;
  class FakeAudioContext {
    state: AudioContextState = initial;
    currentTime = 0;
    destination = {};
    constructor() {
      constructed += 1;
    }
    resume = resume;
    createGain() {
      return {
        gain: { setValueAtTime: vi.fn(), linearRampToValueAtTime: vi.fn() },
        connect: vi.fn(),
      };
    }
    createOscillator() {
      let frequency = 0;
      return {
        type: 'sine',
        frequency: {
          setValueAtTime: (value: number) => {
            frequency = value;
          },
        },
        connect: vi.fn(),
        start: (at: number) => started.push({ frequency, at }),
        stop: vi.fn(),
      };
    }
  }
  vi.stubGlobal('AudioContext', FakeAudioContext);
  return { started, contexts: () => constructed };
}

describe('alert sound', () => {
  beforeEach(() => {
    resetAlert();
    vi.useFakeTimers();
  });
  afterEach(() => {
    resetAlert();
  });

  it('plays a short generated tone, reusing one audio context', () => {
    const audio = fakeAudio('running', () => Promise.resolve());
    playAlert();
    playAlert();
    expect(audio.contexts()).toBe(1);
    expect(audio.started).toHaveLength(ALERT_TONE.beeps * 2);
    expect(audio.started[0]).toEqual({ frequency: ALERT_TONE.frequencyHz, at: 0 });
  });

  it('does nothing, and does not throw, without Web Audio', () => {
    vi.stubGlobal('AudioContext', undefined);
    expect(() => playAlert()).not.toThrow();
  });

  it('does not throw when the browser refuses to create an audio context', () => {
    vi.stubGlobal(
      'AudioContext',
      class {
        constructor() {
          throw new Error('NotAllowedError');
        }
      },
    );
    expect(() => playAlert()).not.toThrow();
  });

  it('swallows an autoplay refusal and stays silent', async () => {
    const audio = fakeAudio('suspended', () =>
      Promise.reject(new DOMException('not allowed', 'NotAllowedError')),
    );
    playAlert();
    await vi.advanceTimersByTimeAsync(0);
    expect(audio.started).toEqual([]);
  });

  it('plays once a suspended context resumes at once, but not a stale tone much later', async () => {
    let release: () => void = () => undefined;
    const audio = fakeAudio('suspended', () => Promise.resolve());
    playAlert();
    await vi.advanceTimersByTimeAsync(0);
    expect(audio.started).toHaveLength(ALERT_TONE.beeps);

    resetAlert();
    const late = fakeAudio(
      'suspended',
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    playAlert();
    await vi.advanceTimersByTimeAsync(ALERT_STALE_MS + 1);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(late.started).toEqual([]);
  });
});
