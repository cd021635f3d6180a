// Preloaded into the server process by the streams bench only (`node --expose-gc --import tsx
// --import ./bench/lib-streams/gc-hook.ts src/main.ts`): on SIGUSR2 it collects garbage (full GC,
// twice, so that weak references and finalisers settle) and prints the process's memory as one
// JSON line on stdout, `{"benchMemory":{rss,heapUsed,heapTotal,external,arrayBuffers}}`. The server
// itself is unchanged; nothing of this is in src/.
import { readFileSync } from 'node:fs';

const gc = (globalThis as { gc?: () => void }).gc;

/** VmRSS of this process in bytes (what the kernel says, beside Node's own figure). */
function vmRss(): number {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  return kb ? Number(kb) * 1024 : NaN;
}

process.on('SIGUSR2', () => {
  gc?.();
  // A second collection after the event loop turned once: what the first one freed for
  // finalisation (weak maps, closed handles) goes too.
  setImmediate(() => {
    gc?.();
    const usage = process.memoryUsage();
    const benchMemory = {
      gc: gc !== undefined,
      rss: vmRss(),
      heapUsed: usage.heapUsed,
      heapTotal: usage.heapTotal,
      external: usage.external,
      arrayBuffers: usage.arrayBuffers,
    };
    process.stdout.write(`${JSON.stringify({ benchMemory })}\n`);
  });
});
