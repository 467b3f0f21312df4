/** Interactions that count as "the user is still here" for the idle timeout. */
const ACTIVITY_EVENTS = ['keydown', 'pointerdown', 'wheel', 'touchstart'] as const;

let lastActivityAt = 0;
let tracking = false;

function markActivity(): void {
  lastActivityAt = Date.now();
}

/** Starts recording the time of the last interaction (idempotent) and counts now as one. */
export function startActivityTracking(): void {
  markActivity();
  if (tracking) {
    return;
  }
  tracking = true;
  for (const type of ACTIVITY_EVENTS) {
    window.addEventListener(type, markActivity, { capture: true, passive: true });
  }
}

/** Stops recording interactions. */
export function stopActivityTracking(): void {
  if (!tracking) {
    return;
  }
  tracking = false;
  for (const type of ACTIVITY_EVENTS) {
    window.removeEventListener(type, markActivity, { capture: true });
  }
}

/** Whether the user interacted within the last `windowMs` milliseconds. */
export function activeWithin(windowMs: number): boolean {
  return Date.now() - lastActivityAt < windowMs;
}
