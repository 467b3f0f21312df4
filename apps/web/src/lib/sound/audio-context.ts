type AudioContextConstructor = new () => AudioContext;

let context: AudioContext | null = null;
const listeners = new Set<() => void>();

function audioContextConstructor(): AudioContextConstructor | undefined {
  const scope = globalThis as {
    AudioContext?: AudioContextConstructor;
    webkitAudioContext?: AudioContextConstructor;
  };
  return scope.AudioContext ?? scope.webkitAudioContext;
}

function notify(): void {
  for (const listener of listeners) {
    listener();
  }
}

/**
 * The page's one audio context (browsers limit how many may exist), made on first use; null
 * without Web Audio. Its state says whether the browser lets the page play sound: 'suspended'
 * until the user has clicked or typed on the page (autoplay policy), e.g. after a reload.
 */
export function audioContext(): AudioContext | null {
  if (context) {
    return context;
  }
  try {
    const Audio = audioContextConstructor();
    if (!Audio) {
      return null;
    }
    context = new Audio();
    if (typeof context.addEventListener === 'function') {
      context.addEventListener('statechange', notify);
    }
    return context;
  } catch {
    return null;
  }
}

/** Whether sound can play now (the audio context runs). */
export function soundAllowed(): boolean {
  return audioContext()?.state === 'running';
}

/** Hears when sound becomes allowed (or blocked again); returns the unsubscribe. */
export function onSoundAllowedChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Asks the browser to let the page play sound: call it from a click or key press (a user
 * gesture), e.g. the "Enable sound" control. Resolves to whether sound is allowed now.
 */
export async function enableSound(): Promise<boolean> {
  const audio = audioContext();
  if (!audio) {
    return false;
  }
  try {
    await audio.resume();
  } catch {
    // Refused (no gesture): still blocked.
  }
  notify();
  return audio.state === 'running';
}

/** Forgets the audio context (tests). */
export function resetAudioContext(): void {
  context = null;
  notify();
}
