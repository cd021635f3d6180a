import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from './config.ts';

const production = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://db.skyport.test/skyport',
  APP_ORIGIN: 'https://skyport.test',
  ALLOW_TEST_PAYMENTS: 'true',
};

describe('production configuration', () => {
  test('starts with a database server, the public origin and a payment provider', () => {
    const config = loadConfig(production);
    expect(config.DATABASE_URL).toBe(production.DATABASE_URL);
    expect(config.DATABASE_POOL_MAX).toBe(10);
  });

  test('refuses to start without DATABASE_URL unless the embedded database is asked for', () => {
    expect(() => loadConfig({ ...production, DATABASE_URL: undefined })).toThrow(
      /DATABASE_URL: required in production/,
    );
    const single = loadConfig({
      ...production,
      DATABASE_URL: undefined,
      EMBEDDED_DATABASE: 'true',
    });
    expect(single.DATABASE_URL).toBeUndefined();
    // Outside production, no DATABASE_URL is the demo's embedded default.
    expect(loadConfig({}).DATABASE_URL).toBeUndefined();
  });

  test('logs JSON lines: readable lines are for development', () => {
    expect(() => loadConfig({ ...production, LOG_FORMAT: 'pretty' })).toThrow(
      /LOG_FORMAT: production logs JSON lines/,
    );
    expect(loadConfig({ ...production, LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
  });

  test('names every problem at once, bad values and missing keys alike', () => {
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: 'production', PORT: 'eighty', DATABASE_POOL_MAX: '0' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((problem) => problem.split(':')[0]);
    expect(problems).toEqual(
      expect.arrayContaining([
        'PORT',
        'DATABASE_POOL_MAX',
        'DATABASE_URL',
        'PAYMENT_PROVIDER',
        'APP_ORIGIN',
      ]),
    );
    expect((error as ConfigError).message).toContain('APP_ORIGIN: required in production');
  });
});

describe("README's configuration table", () => {
  /** The rows of the table under "## Configuration": name → default cell. */
  async function readmeRows(): Promise<Map<string, string>> {
    const readme = await readFile(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
    const section = readme.split(/^## /m).find((part) => part.startsWith('Configuration'));
    const rows = new Map<string, string>();
    for (const line of (section ?? '').split('\n')) {
      const cells = line.split('|').map((cell) => cell.trim());
      const name = /^`([A-Z0-9_]+)`$/.exec(cells[1] ?? '')?.[1];
      if (name) rows.set(name, cells[2] ?? '');
    }
    return rows;
  }

  test('lists every variable the server reads, and no other', async () => {
    const rows = await readmeRows();
    expect([...rows.keys()].sort()).toEqual(CONFIG_VARIABLES.map(({ name }) => name).sort());
  });

  test('gives each variable the default the server uses', async () => {
    const rows = await readmeRows();
    for (const { name, defaultValue } of CONFIG_VARIABLES) {
      const cell = rows.get(name) ?? '';
      if (typeof defaultValue === 'string' || typeof defaultValue === 'number') {
        expect(cell, name).toContain(`\`${defaultValue}\``);
      } else {
        expect(cell, name).not.toMatch(/^`[^`]*`$/);
      }
    }
  });
});
