// Loads demo data or a synthetic benchmark catalogue into the database at DATABASE_URL:
//   tsx src/db/seed/cli.ts --demo
//   tsx src/db/seed/cli.ts --synthetic 100000 [--airlines 60] [--seed 1]
// Migrations are applied first, so an empty database works.
import { parseArgs } from 'node:util';
import { createSql } from '../client.ts';
import { migrate } from '../migrate.ts';
import { DEMO_ACCOUNTS, seedDemoData } from './demo.ts';
import { generateSyntheticCatalog } from './synthetic.ts';

const usage =
  'usage: tsx src/db/seed/cli.ts --demo | --synthetic <flights> [--airlines <n>] [--seed <n>]';

const { values } = parseArgs({
  options: {
    demo: { type: 'boolean', default: false },
    synthetic: { type: 'string' },
    airlines: { type: 'string' },
    seed: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

function integerOption(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw.replaceAll('_', ''));
  if (!Number.isSafeInteger(value)) throw new Error(`--${name} must be an integer, got "${raw}"`);
  return value;
}

async function run(): Promise<number> {
  if (values.help || (!values.demo && values.synthetic === undefined)) {
    console.error(usage);
    return values.help ? 0 : 2;
  }
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL is required, e.g. postgres://postgres@127.0.0.1:5432/skyport');
    return 2;
  }
  const flights = integerOption('synthetic', values.synthetic);
  const airlines = integerOption('airlines', values.airlines);
  const seed = integerOption('seed', values.seed);

  const sql = createSql(url, { max: 2 });
  try {
    const applied = await migrate(sql);
    if (applied.length > 0) console.log(`migrations applied: ${applied.join(', ')}`);
    if (values.demo) {
      const started = performance.now();
      const counts = await seedDemoData(sql);
      const ms = Math.round(performance.now() - started);
      if (counts.skipped) console.log('demo data already present; nothing loaded');
      else console.log(`demo data loaded in ${ms} ms: ${JSON.stringify(counts)}`);
      for (const account of DEMO_ACCOUNTS) {
        console.log(
          `  ${account.email.padEnd(24)} ${account.password.padEnd(14)} ${account.description}`,
        );
      }
    }
    if (flights !== undefined) {
      const result = await generateSyntheticCatalog(sql, { flights, airlines, seed });
      console.log(
        `synthetic catalogue: ${result.flights} flights, ${result.airlines} airlines in ${result.ms} ms`,
      );
    }
    return 0;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

process.exitCode = await run().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
