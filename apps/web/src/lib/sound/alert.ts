import { audioContext, resetAudioContext } from './audio-context.ts';

/** The alert tone: two short beeps, generated (no audio file to load). */
export const ALERT_TONE = {
  frequencyHz: 880,
  beepSeconds: 0.12,
  gapSeconds: 0.08,
  beeps: 2,
  /** Peak volume, 0..1: audible without startling. */
  volume: 0.2,
} as const;

/**
 * A tone asked for while the page may not play sound (autoplay policy: no click on the page yet)
 * is dropped, unless the browser lets it play within this time: a stale beep is worse than none.
 */
export const ALERT_STALE_MS = 1000;

function beep(audio: AudioContext): void {
  const { frequencyHz, beepSeconds, gapSeconds, beeps, volume } = ALERT_TONE;
  const start = audio.currentTime;
  for (let i = 0; i < beeps; i += 1) {
    const at = start + i * (beepSeconds + gapSeconds);
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.setValueAtTime(frequencyHz, at);
    // A short ramp in and out avoids clicks.
    gain.gain.setValueAtTime(0, at);
    gain.gain.linearRampToValueAtTime(volume, at + 0.01);
    gain.gain.linearRampToValueAtTime(0, at + beepSeconds);
    oscillator.connect(gain);
    gain.connect(audio.destination);
    oscillator.start(at);
    oscillator.stop(at + beepSeconds);
  }
}

/**
 * Plays the alert tone with the Web Audio API. Never throws: without Web Audio, or while the
 * browser blocks sound until the user interacts with the page, it plays nothing.
 */
export function playAlert(): void {
  try {
    const audio = audioContext();
    if (!audio) {
      return;
    }
    if (audio.state === 'running') {
      beep(audio);
      return;
    }
    const askedAt = Date.now();
    audio
      .resume()
      .then(() => {
        if (Date.now() - askedAt <= ALERT_STALE_MS) {
          beep(audio);
        }
      })
      // Autoplay policy: the resume is refused (or the beep fails); stay silent.
      .catch(() => undefined);
  } catch {
    // Sound is a nicety: a browser that refuses it must not break the page.
  }
}

/** Forgets the audio context (tests). */
export function resetAlert(): void {
  resetAudioContext();
}
