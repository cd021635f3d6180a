import { z } from 'zod';
import { UserSchema, type User } from '@skyport/shared';
import { createListeners, createStore, useStore } from '../lib/store.ts';
import { deferredLogout } from '../features/identity/logout/app-deferred-logout.ts';
import { ApiError, apiRequest } from '../api/api-client.ts';

/**
 * Who is signed in, as an external store (no React state to keep in step). The server's
 * `GET /api/auth/me` decides; the last answer is remembered on this device so that an offline
 * start still shows the customer's own local data (favourites, cart, orders).
 */
export type SessionState =
  { status: 'loading'; user: null } | { status: 'ready'; user: User | null };

const CACHE_KEY = 'skyport:session-user';
const MeResponseSchema = z.union([
  z.object({ user: UserSchema }).transform((body) => body.user),
  UserSchema,
]);

const LOADING: SessionState = { status: 'loading', user: null };
const session = createStore<SessionState>(LOADING);
const userChanged = createListeners<User | null>();

function readCachedUser(): User | null {
  try {
    const raw = localStorage.getItem(CACHE_KEY);
    if (!raw) return null;
    const parsed = UserSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function writeCachedUser(user: User | null) {
  try {
    if (user) localStorage.setItem(CACHE_KEY, JSON.stringify(user));
    else localStorage.removeItem(CACHE_KEY);
  } catch {
    // Not remembering the user only costs the offline start its personal data.
  }
}

/** Sets the signed-in user (or none) and tells the listeners (sync start/stop, screens). */
export function setSessionUser(user: User | null) {
  const current = session.get();
  const previous = current.status === 'ready' ? current.user : undefined;
  writeCachedUser(user);
  session.set({ status: 'ready', user });
  if (
    previous === undefined ||
    previous?.id !== user?.id ||
    previous?.emailVerified !== user?.emailVerified
  ) {
    userChanged.notify(user);
  }
}

/** Runs `listener` whenever a different user (or nobody) becomes the session's user. */
export function onSessionUserChange(listener: (user: User | null) => void): () => void {
  const unsubscribe = userChanged.subscribe(listener);
  const current = session.get();
  if (current.status === 'ready') listener(current.user);
  return unsubscribe;
}

let loading: Promise<User | null> | null = null;

/** A logout made offline has not reached the server yet. */
class LogoutPending extends Error {}

/**
 * Asks the server who is signed in; offline, keeps the last known user. After a logout the server
 * has not heard of yet (made offline), that logout goes first: until it has, the cookie it left
 * is nobody's session here, and the visitor is a guest.
 */
export function loadSession(): Promise<User | null> {
  loading ??= deferredLogout
    .settle()
    .then((settled) => {
      if (!settled) throw new LogoutPending();
      return apiRequest('/auth/me', { schema: MeResponseSchema });
    })
    .then((user) => {
      setSessionUser(user);
      return user;
    })
    .catch((error: unknown) => {
      if (
        error instanceof LogoutPending ||
        (error instanceof ApiError && (error.status === 401 || error.status === 403))
      ) {
        setSessionUser(null);
        return null;
      }
      // Offline or the server is down: trust this device's memory until the server answers.
      const cached = readCachedUser();
      setSessionUser(cached);
      return cached;
    })
    .finally(() => {
      loading = null;
    });
  return loading;
}

/** Re-reads the user after it changed on the server (email verified, name edited). */
export function refreshSession(): Promise<User | null> {
  return loadSession();
}

export function getSession(): SessionState {
  return session.get();
}

/**
 * The session, live: `status` is `loading` until the first answer (or the cached user offline).
 * The prerendered home page was rendered loading, so hydration starts from there too.
 */
export function useSession(): SessionState {
  return useStore(session, sameSession, () => LOADING);
}

const sameSession = (state: SessionState) => state;
const currentUser = (state: SessionState) => state.user;
const noUser = () => null;

/**
 * The signed-in user, or null for a guest (also null while loading). Only a change of user
 * re-renders: a guest's page does not render again when the server confirms it is a guest.
 */
export function useCurrentUser(): User | null {
  return useStore(session, currentUser, noUser);
}

export type Role = 'guest' | 'customer' | 'airline' | 'super_admin';

export function roleOf(user: User | null): Role {
  return user ? user.role : 'guest';
}
