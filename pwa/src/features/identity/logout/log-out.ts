import type { SyncEngine } from '../../../sync/engine.ts';
import type { DeferredLogout } from './deferred-logout.ts';

/** What the user chose when some changes could not be sent. */
export type LogoutChoice = 'stay' | 'logOut';

export type LogoutOutcome =
  /** The user kept the session (and the unsent changes); nothing was ended or wiped. */
  | { status: 'stayed'; unsent: number }
  /**
   * Logged out: the device holds nothing of the user any more. `serverSession` is `deferred`
   * when the server could not be told yet (it is, when the connection returns).
   */
  | { status: 'loggedOut'; discarded: number; serverSession: 'ended' | 'deferred' };

export interface LogOutOptions {
  engine: SyncEngine;
  deferred: DeferredLogout;
  /** Asks the user, when `unsent` changes could not be sent, whether to stay signed in. */
  choose(unsent: number): Promise<LogoutChoice>;
  /** Whether the browser is online (the app: `navigator.onLine`). */
  isOnline(): boolean;
  /** How long the queued changes get to reach the server; default 5 s. */
  pushWaitMs?: number;
}

export const LOGOUT_PUSH_WAIT_MS = 5000;

/**
 * Logout that loses nothing by surprise (issue 14):
 *
 * 1. The changes still queued are pushed while the session is valid (bounded wait; none offline).
 * 2. If some could not be sent (offline, refused for now, no answer in time), the user chooses:
 *    stay signed in (everything kept, sync goes on) or log out anyway (those changes discarded).
 *    Nothing is ended or wiped before that answer.
 * 3. The server session ends: the pending-logout flag is set first, so a failure (offline, no
 *    answer) or a closed tab leaves it to be ended when the connection returns.
 * 4. The user's own data leaves the device (personal collections, their replication state), at
 *    once even offline.
 *
 * The caller then forgets the session user (session.ts) and shows "Log out!".
 */
export async function logOutKeepingChanges(options: LogOutOptions): Promise<LogoutOutcome> {
  const { engine, deferred } = options;
  const pushWaitMs = options.pushWaitMs ?? LOGOUT_PUSH_WAIT_MS;
  const unsent = await engine.unsentChanges(options.isOnline() ? pushWaitMs : 0);
  if (unsent > 0 && (await options.choose(unsent)) === 'stay') return { status: 'stayed', unsent };

  deferred.defer();
  const ended = options.isOnline() && (await deferred.settle());
  // Already pushed and chosen: nothing more to wait for before the data goes.
  await engine.setUser(null, { pushWaitMs: 0 });
  return { status: 'loggedOut', discarded: unsent, serverSession: ended ? 'ended' : 'deferred' };
}
