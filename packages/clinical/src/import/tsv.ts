/** Splits text into lines, dropping a trailing empty line and any carriage returns. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') {
    lines.pop();
  }
  return lines;
}

function unquote(field: string): string {
  if (field.length >= 2 && field.startsWith('"') && field.endsWith('"')) {
    return field.slice(1, -1).replace(/""/g, '"');
  }
  return field;
}

/**
 * Parses tab-separated text with a header row into records keyed by column name. Fields may be
 * wrapped in double quotes (the Disease Ontology reports quote every field); tabs never occur
 * inside fields in these files, so a quote-aware splitter is not needed.
 */
export function parseTsv(text: string): Record<string, string>[] {
  const lines = splitLines(text.replace(/^\uFEFF/, ''));
  const header = (lines[0] ?? '').split('\t').map(unquote);
  const rows: Record<string, string>[] = [];
  for (const line of lines.slice(1)) {
    if (line.trim() === '') {
      continue;
    }
    const fields = line.split('\t').map(unquote);
    const row: Record<string, string> = {};
    header.forEach((name, i) => {
      row[name] = fields[i] ?? '';
    });
    rows.push(row);
  }
  return rows;
}

/** Reads a required column, failing loudly with the line number when the file has another shape. */
export function column(row: Record<string, string>, name: string, line: number): string {
  const value = row[name];
  if (value === undefined) {
    throw new Error(`line ${line}: no column '${name}'`);
  }
  return value;
}
