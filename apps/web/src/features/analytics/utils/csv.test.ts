import { describe, expect, it } from 'vitest';
import { csvFileName, toCsv } from './csv.ts';

describe('chart data as CSV', () => {
  it('quotes what needs quoting, leaves empty cells empty, and never starts a formula', () => {
    const rows = [
      { name: 'a, "b"', n: 1, p: null },
      { name: '=SUM(A1)', n: 2.5, p: 3 },
      { name: 'line\nbreak', n: -1, p: undefined },
    ];
    const csv = toCsv(rows, [
      { label: 'Name', value: (r) => r.name },
      { label: 'N', value: (r) => r.n },
      { label: 'p50 (s)', value: (r) => r.p },
    ]);
    expect(csv).toBe(
      'Name,N,p50 (s)\r\n"a, ""b""",1,\r\n\'=SUM(A1),2.5,3\r\n"line\nbreak",-1,\r\n',
    );
  });

  it('names the file after the chart and the range', () => {
    expect(
      csvFileName('Outcomes per job type', '2026-01-05T10:00:00.000Z', '2026-01-06T10:00:00.000Z'),
    ).toBe('loopdesk-outcomes-per-job-type-2026-01-05T1000-2026-01-06T1000.csv');
  });
});
