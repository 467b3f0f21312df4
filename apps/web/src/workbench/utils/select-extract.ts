/**
 * Selects the patient's extract inside a reword field's starting text, so that typing replaces it
 * and the spec's prompt words stay around it (issue 20 "no reword sent unread"). A field whose text
 * does not hold the extract keeps its caret.
 */
export function selectExtract(
  field: HTMLInputElement | HTMLTextAreaElement,
  extract: string,
): void {
  const at = extract === '' ? -1 : field.value.indexOf(extract);
  if (at >= 0) {
    field.setSelectionRange(at, at + extract.length);
  }
}
