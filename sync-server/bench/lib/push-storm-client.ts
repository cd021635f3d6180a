// The write storm's load generator, a process of its own (`node --import tsx push-storm-client.ts`,
// its configuration as JSON on stdin) so that 200 customers' loops do not share an event loop with
// the checkout loop the bench times meanwhile. Every customer is a closed loop: it pushes one
// favourite change (`POST /api/sync/favourites/push`, one row, as the PWA pushes a tap on the
// heart), waits for the answer, and pushes the next, toggling its own flights on and off. Customer
// i talks to targets[i % targets.length]. Prints `{"phase":"measuring"}` when the measured window
// starts and `{"result":{...}}` at the end.
import { httpClient, runLoops, type HttpClient } from './http-client.ts';

export interface StormCustomer {
  token: string;
  userId: string;
  /** Favourite documents (flight snapshot included) this customer toggles, in turn. */
  docs: Record<string, unknown>[];
}

export interface StormConfig {
  targets: string[];
  /** Sent with every push (the sync protocol version). */
  headers: Record<string, string>;
  path: string;
  customers: StormCustomer[];
  seconds: number;
  warmupSeconds: number;
}

type Doc = Record<string, unknown> & { id: string; _deleted: boolean };

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const config = JSON.parse(await readStdin()) as StormConfig;
const clients: HttpClient[] = config.targets.map((target) => httpClient(target));
/** What each customer last knew of each of its documents (undefined: never written). */
const known: (Doc | undefined)[][] = config.customers.map((c) => c.docs.map(() => undefined));

const result = await runLoops(
  async (loop, iteration) => {
    const customer = config.customers[loop]!;
    const k = iteration % customer.docs.length;
    const template = customer.docs[k]!;
    const master = known[loop]![k];
    const live = master !== undefined && !master._deleted;
    const next: Doc = {
      ...(template as Doc),
      createdAt: live ? (master.createdAt as number) : Date.now(),
      _deleted: live,
    };
    const body = JSON.stringify({
      rows: [{ newDocumentState: next, assumedMasterState: master ?? null }],
    });
    const client = clients[loop % clients.length]!;
    const started = performance.now();
    const answer = await client.request(
      'POST',
      config.path,
      {
        ...config.headers,
        Authorization: `Bearer ${customer.token}`,
        'Content-Type': 'application/json',
      },
      body,
    );
    const ms = performance.now() - started;
    if (answer.status !== 200) throw new Error(`${answer.status}: ${answer.body.slice(0, 200)}`);
    // The server's documents of rows it did not write (a conflict, decision 027).
    known[loop]![k] = next;
    for (const doc of JSON.parse(answer.body) as Doc[])
      if (doc.id === next.id) known[loop]![k] = doc;
    return ms;
  },
  {
    loops: config.customers.length,
    seconds: config.seconds,
    warmupSeconds: config.warmupSeconds,
    onMeasuring: () => process.stdout.write(`${JSON.stringify({ phase: 'measuring' })}\n`),
  },
);
process.stdout.write(`${JSON.stringify({ result })}\n`);
for (const client of clients) client.close();
process.exit(0);
