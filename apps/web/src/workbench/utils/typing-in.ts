/** Inputs that take no text: a key on them (a digit on a radio) may be a shortcut. */
const NON_TEXT_INPUTS: ReadonlySet<string> = new Set([
  'radio',
  'checkbox',
  'button',
  'submit',
  'reset',
  'range',
  'color',
  'file',
  'image',
]);

/** Whether a key event comes from a field that takes text: its keys are not shortcuts. */
export function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) {
    return false;
  }
  if (target.isContentEditable || ['TEXTAREA', 'SELECT'].includes(target.tagName)) {
    return true;
  }
  return target instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(target.type);
}
