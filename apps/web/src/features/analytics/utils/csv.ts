/**
 * Each chart's data as CSV (issue 16 item 2): RFC 4180 quoting, a header row of the columns'
 * labels, one line per row. Cells starting with = + - @ are prefixed with ' so a spreadsheet never
 * runs them as formulas.
 */
export interface CsvColumn<T> {
  readonly label: string;
  readonly value: (row: T) => string | number | null | undefined;
}

function cell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) {
    return '';
  }
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@]/.test(text)) {
    text = `'${text}`;
  }
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  const lines = [columns.map((c) => cell(c.label)).join(',')];
  for (const row of rows) {
    lines.push(columns.map((c) => cell(c.value(row))).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Offers the text as a file download. */
export function downloadCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A file name for a chart's export: `loopdesk-<chart>-<from date>-<to date>.csv`. */
export function csvFileName(chart: string, from: string, to: string): string {
  const day = (iso: string) => iso.slice(0, 16).replaceAll(':', '');
  const slug = chart
    .toLowerCase()
    .replaceAll(/[^a-z0-9]+/g, '-')
    .replaceAll(/^-|-$/g, '');
  return `loopdesk-${slug}-${day(from)}-${day(to)}.csv`;
}
