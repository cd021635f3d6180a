import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Renders rows as an aligned text table (first row is the header). */
export function table(rows: readonly (readonly (string | number)[])[]): string {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, String(cell).length)));
  const line = (row: readonly (string | number)[]) =>
    row
      .map((cell, i) =>
        typeof cell === 'number'
          ? String(cell).padStart(widths[i]!)
          : String(cell).padEnd(widths[i]!),
      )
      .join('  ');
  const [header, ...body] = rows;
  if (!header) return '';
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** Writes `data` as JSON to `<dir>/<name>-<timestamp>.json` and `<dir>/<name>-latest.json`. */
export async function writeResults(dir: string, name: string, data: unknown): Promise<string> {
  await mkdir(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join(dir, `${name}-${stamp}.json`);
  const text = `${JSON.stringify(data, null, 2)}\n`;
  await writeFile(file, text);
  await writeFile(path.join(dir, `${name}-latest.json`), text);
  return file;
}

/** A limit a measurement must meet, and whether it did. */
export interface LimitCheck {
  text: string;
  pass: boolean;
}

export function limit(value: number, op: '>=' | '<' | '<=' | '>', bound: number): LimitCheck {
  const pass =
    op === '>='
      ? value >= bound
      : op === '>'
        ? value > bound
        : op === '<='
          ? value <= bound
          : value < bound;
  return { text: `${op} ${bound}`, pass };
}

/** `os.loadavg()` (1, 5, 15 min) before and after a measurement. */
export interface LoadAverages {
  before: number[];
  after: number[];
}

/** One figure of a suite, beside its baseline and its limit: what the run summary prints. */
export interface Measurement {
  suite: string;
  name: string;
  value: number;
  unit: string;
  /** The same work done bare, measured in the same run over the same transport. */
  baseline?: { name: string; value: number };
  /** value / baseline, when the limit is on the ratio. */
  ratio?: number;
  limit?: LimitCheck;
  load?: LoadAverages;
}

const loadText = (load?: LoadAverages) =>
  load
    ? `${load.before.map((l) => l.toFixed(2)).join(' ')} → ${load.after.map((l) => l.toFixed(2)).join(' ')}`
    : '';

/** The measurements as a table: value, baseline, ratio, limit, pass/fail, load average. */
export function measurementTable(measurements: readonly Measurement[]): string {
  const rows: (string | number)[][] = [
    [
      'suite',
      'measurement',
      'value',
      'baseline',
      'ratio',
      'limit',
      'result',
      'load 1/5/15 min before → after',
    ],
  ];
  for (const m of measurements) {
    rows.push([
      m.suite,
      m.name,
      Number.isFinite(m.value) ? `${m.value} ${m.unit}` : 'none',
      m.baseline ? `${m.baseline.value} ${m.unit} (${m.baseline.name})` : '',
      m.ratio === undefined ? '' : m.ratio.toFixed(2),
      m.limit?.text ?? '',
      m.limit ? (m.limit.pass ? 'pass' : 'FAIL') : '',
      loadText(m.load),
    ]);
  }
  return table(rows);
}
