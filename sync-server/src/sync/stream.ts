import type { SyncCollectionName } from '@skyport/shared';
import type { Context } from 'hono';
import type { Sql } from '../db/client.ts';
import { findSessionById } from '../features/identity/sessions.ts';
import type { Lifecycle } from '../lib/lifecycle.ts';
import type { Logger } from '../lib/logger.ts';
import type { Metrics } from '../lib/metrics.ts';
import type { AccessWatch } from './access-watch.ts';
import type { ChangeFeed, ChangeListener } from './change-feed.ts';
import { resolvePartition } from './partitions.ts';
import {
  changesFrame,
  FINAL_FRAMES,
  HEARTBEAT_FRAME,
  RESYNC_FRAME,
  type EndReason,
} from './stream-frames.ts';
import type { StreamLimits, StreamSlots } from './stream-limits.ts';

/**
 * The sync streams (Server-Sent Events) of one server instance, built to hold ten thousand of them
 * at a few kilobytes each and to reach all of them within a fraction of a second:
 * - a stream writes straight to its connection (stream-http.ts), without Hono's streamSSE: no web
 *   TransformStream, reader loop, promise or timer per write, and no request object kept alive;
 * - a change is encoded once (stream-frames.ts) and the feed's delivery loop hands the same bytes
 *   to every stream's socket, synchronously: nothing waits in a promise queue behind other streams;
 * - one heartbeat tick and one drain listener serve every stream of the instance;
 * - timers exist only where something is pending: a stream whose client is behind (the write
 *   timeout), a signed-in stream's session expiry, and a closing stream's last word.
 * This module is the streams' logic; stream-http.ts opens them on HTTP responses.
 */

/** An idle stream gets a comment line every 10 to 20 s, so proxies and the client see it alive. */
const HEARTBEAT_MS = 20_000;
/** How long a stream whose session ended waits for a write in progress before it cuts the socket. */
const SESSION_END_GRACE_MS = 500;
/** setTimeout's longest delay; a session expiring later is timed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What the streams of an instance share: the database, its feeds, limits, drain and metrics. */
export interface StreamHubDeps {
  sql: Sql;
  logger: Logger;
  feed: () => ChangeFeed;
  watch: () => AccessWatch;
  lifecycle: Lifecycle;
  metrics: Metrics;
  limits: StreamLimits;
  slots: StreamSlots;
  clientAddress: (c: Context) => string;
}

/** The partitions a stream carries. */
export type Wanted = { collection: SyncCollectionName; partition: string | null }[];

/** The open streams of an instance, with what they share: the heartbeat tick and the drain. */
export class StreamHub {
  readonly #open = new Set<SyncStream>();
  #ticker: NodeJS.Timeout | undefined;

  constructor(readonly deps: StreamHubDeps) {
    // One listener for every stream (an AbortSignal listener per stream would be ten thousand).
    deps.lifecycle.draining.addEventListener(
      'abort',
      () => {
        for (const stream of this.#open) stream.end('draining');
      },
      { once: true },
    );
  }

  add(stream: SyncStream): void {
    this.#open.add(stream);
    if (!this.#ticker) {
      // Every HEARTBEAT_MS / 2, each stream that wrote nothing during a whole tick gets a
      // heartbeat: an idle stream hears something every 10 to 20 s.
      this.#ticker = setInterval(() => {
        for (const stream of this.#open) stream.tick();
      }, HEARTBEAT_MS / 2);
      this.#ticker.unref();
    }
  }

  remove(stream: SyncStream): void {
    this.#open.delete(stream);
    if (this.#open.size === 0) {
      clearInterval(this.#ticker);
      this.#ticker = undefined;
    }
  }
}

/**
 * Where a stream's bytes go: Node.js's ServerResponse itself, or (see WebOutput) a web body.
 * `write` takes the bytes in any case and says whether the client keeps up; when it does not,
 * `drained()` follows once it caught up. `closed()` follows the end, or the connection's loss.
 */
export interface StreamOutput {
  write(bytes: Uint8Array): boolean;
  /** Ends the response after what was written. */
  end(): void;
  /** Cuts the connection now. */
  destroy(): void;
}

interface StreamRequest {
  wanted: Wanted;
  /** Events name their collection (the several-collection route). */
  named: boolean;
  session: { id: string; userId: string; expiresAt: Date } | null;
  address: string;
  requestId: string | undefined;
  /** Gives the stream's slot back (StreamSlots). */
  release: () => void;
}

/**
 * One client's stream, from the moment its slot is taken until its connection closes. Changes go
 * to the socket as they come; they wait in the stream's own bounded queue only while the client
 * is behind (its socket buffers are full), while the stream is being set up, or while a notice
 * about its session is being checked.
 */
export class SyncStream {
  #out: StreamOutput | undefined;
  #queue: Uint8Array[] = [];
  #queuedBytes = 0;
  /** The resync went out: changes are written as they come. */
  #live = false;
  /** The client is behind: the output said so, and has not drained yet. */
  #blocked = false;
  /** Armed while blocked: the client must catch up within the write timeout. */
  #stallTimer: NodeJS.Timeout | undefined;
  /** Nothing was written since the last heartbeat tick. */
  #idle = false;
  #ending: EndReason | undefined;
  /** The last word is written and the response ended. */
  #finished = false;
  /** Cuts a closing stream whose client does not take its last bytes. */
  #closeGuard: NodeJS.Timeout | undefined;
  #closed = false;
  /** A write was given up on (a stalled client, or one a session end did not wait for). */
  #cutLate = false;
  #checking = false;
  #checkAgain = false;
  #expiryTimer: NodeJS.Timeout | undefined;
  #unsubscribes: (() => void)[] = [];

  constructor(
    private readonly hub: StreamHub,
    private readonly request: StreamRequest,
  ) {
    hub.add(this);
    hub.deps.metrics.openStreams.inc();
  }

  /**
   * The response is the client's from here: listens to the session and the feeds, then sends the
   * `resync` and whatever came meanwhile.
   */
  async start(out: StreamOutput): Promise<void> {
    this.#out = out;
    const { session, wanted, named } = this.request;
    const { feed, watch, logger } = this.hub.deps;
    try {
      if (session && !this.#ending) {
        this.#armExpiry(session.expiresAt);
        this.#unsubscribes.push(await watch().watch(session.userId, () => void this.#check()));
        // What committed between the request's authentication and the LISTEN is seen here.
        await this.#check();
      }
      for (const { collection, partition } of wanted) {
        if (this.#ending) break;
        const tag = named ? collection : undefined;
        const listener: ChangeListener = (batch) => this.push(changesFrame(batch, tag));
        this.#unsubscribes.push(await feed().subscribe(collection, partition, listener));
      }
    } catch (error) {
      // The database failed while the stream was set up (LISTEN or first reads): the stream
      // ends and the client reconnects.
      logger.error({ err: error, requestId: this.request.requestId }, 'sync stream failed');
      this.end('error');
    }
    if (this.#ending) {
      // Ended while it was set up: what subscribed late stops here; the last word goes out.
      this.#stopListening();
      this.#finish();
      return;
    }
    this.#write(RESYNC_FRAME);
    this.#live = true;
    this.#flush();
  }

  /** A change for this stream (the feed's delivery loop calls this for every stream in turn). */
  push(bytes: Uint8Array): void {
    if (this.#ending) return;
    if (this.#live && !this.#blocked && !this.#checking && this.#queue.length === 0) {
      this.#write(bytes);
      return;
    }
    const { queueMaxEvents, queueMaxBytes } = this.hub.deps.limits;
    if (
      this.#queue.length > 0 &&
      (this.#queue.length >= queueMaxEvents || this.#queuedBytes + bytes.byteLength > queueMaxBytes)
    ) {
      this.end('overflow');
      return;
    }
    this.#queue.push(bytes);
    this.#queuedBytes += bytes.byteLength;
  }

  /** The hub's heartbeat tick. */
  tick(): void {
    if (this.#idle && this.#live && !this.#ending && !this.#blocked && this.#queue.length === 0)
      this.#write(HEARTBEAT_FRAME);
    this.#idle = true;
  }

  /** The output took what it held: the client caught up. */
  drained(): void {
    if (this.#blocked) {
      this.#blocked = false;
      clearTimeout(this.#stallTimer);
      this.#stallTimer = undefined;
    }
    this.#flush();
  }

  /**
   * Ends the stream, with a last word the client understands (stream-frames.ts). Nothing waiting
   * is sent after a session or access end, and a slow reader's backlog is given back at once; a
   * drain still flushes what it holds first.
   */
  end(reason: EndReason): void {
    if (this.#closed || this.#finished) return;
    // A session or access end during a drain still drops what waits (the drain's flush could be
    // waiting on the very check that found the session ended).
    if (this.#ending && !(this.#ending === 'draining' && isSecurityEnd(reason))) return;
    this.#ending = reason;
    this.#stopListening();
    clearTimeout(this.#expiryTimer);
    if (reason !== 'draining') {
      this.#queue = [];
      this.#queuedBytes = 0;
    }
    this.#flush();
  }

  /**
   * The connection is done (ended and flushed, or lost): the slot, the gauge and every listener
   * and timer of the stream go.
   */
  closed(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#ending ??= 'aborted';
    this.#stopListening();
    this.#queue = [];
    this.#queuedBytes = 0;
    clearTimeout(this.#stallTimer);
    clearTimeout(this.#expiryTimer);
    clearTimeout(this.#closeGuard);
    const { hub, request } = this;
    const { logger, metrics } = hub.deps;
    hub.remove(this);
    request.release();
    metrics.openStreams.dec();
    metrics.streamsEnded.inc({ reason: this.#cutLate ? 'write-timeout' : this.#ending });
    const reason = this.#ending;
    if (reason === 'overflow' || this.#cutLate)
      logger.info(
        { requestId: request.requestId, address: request.address, reason, cut: this.#cutLate },
        'sync stream ended: the client does not read',
      );
    else if (reason !== 'aborted')
      logger.debug({ requestId: request.requestId, reason }, 'sync stream ended by the server');
  }

  #write(bytes: Uint8Array): void {
    this.#idle = false;
    if (this.#out!.write(bytes) || this.#blocked) return;
    this.#blocked = true;
    this.#stallTimer = setTimeout(() => this.#cut(), this.hub.deps.limits.writeTimeoutMs);
  }

  /** Writes what waits, as far as the client takes it; then ends the stream if it is ending. */
  #flush(): void {
    if (!this.#out || this.#finished) return;
    if (this.#live) {
      while (!this.#blocked && !this.#checking && this.#queue.length > 0) {
        const next = this.#queue.shift()!;
        this.#queuedBytes -= next.byteLength;
        this.#write(next);
      }
    }
    const flushing = this.#ending === 'draining' && this.#live && this.#queue.length > 0;
    if (this.#ending && !flushing) this.#finish();
  }

  /**
   * The last word and the response's end. A client that does not take them in time (half a
   * second after a session or access end, the write timeout otherwise) has its socket cut.
   */
  #finish(): void {
    const out = this.#out;
    if (!out || this.#finished || this.#closed || !this.#ending) return;
    this.#finished = true;
    const last = FINAL_FRAMES[this.#ending];
    if (last) out.write(last);
    out.end();
    if (this.#closed) return;
    const graceMs = isSecurityEnd(this.#ending)
      ? SESSION_END_GRACE_MS
      : this.hub.deps.limits.writeTimeoutMs;
    this.#closeGuard = setTimeout(() => this.#cut(), graceMs);
    this.#closeGuard.unref();
  }

  /** The client did not take what was written in time: its socket goes, and its buffers with it. */
  #cut(): void {
    if (this.#closed) return;
    this.#cutLate = true;
    this.#ending ??= 'stalled';
    this.#finished = true;
    this.#stopListening();
    this.#out?.destroy();
  }

  #stopListening(): void {
    for (const unsubscribe of this.#unsubscribes.splice(0)) unsubscribe();
  }

  #armExpiry(expiresAt: Date): void {
    clearTimeout(this.#expiryTimer);
    const left = expiresAt.getTime() - Date.now();
    if (left <= 0) this.end('expired');
    else
      this.#expiryTimer = setTimeout(
        () => this.#armExpiry(expiresAt),
        Math.min(left, MAX_TIMER_MS),
      );
  }

  /**
   * Whether the session still lives and grants every partition (after an access notice). While
   * a check runs nothing is sent: a change committed after a session ended must not reach that
   * session's stream.
   */
  async #check(): Promise<void> {
    const { session, wanted } = this.request;
    if (!session || this.#ending) return;
    if (this.#checking) {
      this.#checkAgain = true;
      return;
    }
    this.#checking = true;
    try {
      do {
        this.#checkAgain = false;
        const verdict = await checkSession(this.hub.deps.sql, session.id, wanted);
        if ('ended' in verdict) this.end(verdict.ended);
        else this.#armExpiry(verdict.expiresAt);
      } while (this.#checkAgain && !this.#ending);
    } catch (error) {
      // Fail closed: the client reconnects and is authenticated afresh.
      this.hub.deps.logger.warn(
        { err: error, requestId: this.request.requestId },
        'sync stream: session check failed',
      );
      this.end('check-failed');
    } finally {
      this.#checking = false;
      // Changes held back while the session was being checked go out now (if it lives).
      this.#flush();
    }
  }
}

/** Ends after which nothing more may reach the client, and its last word is not waited for long. */
function isSecurityEnd(reason: EndReason): boolean {
  return reason === 'session' || reason === 'expired' || reason === 'access';
}

/**
 * Whether a stream's session still lives and still grants every partition the stream carries
 * (the same rules as opening it), and when the session expires.
 */
async function checkSession(
  sql: Sql,
  sessionId: string,
  wanted: Wanted,
): Promise<{ ended: 'session' | 'access' } | { expiresAt: Date }> {
  const found = await findSessionById(sql, sessionId);
  if (!found) return { ended: 'session' };
  for (const { collection, partition } of wanted) {
    try {
      if (resolvePartition(found.user, collection, partition ?? undefined) !== partition)
        return { ended: 'access' };
    } catch {
      return { ended: 'access' };
    }
  }
  return { expiresAt: found.session.expiresAt };
}
