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
