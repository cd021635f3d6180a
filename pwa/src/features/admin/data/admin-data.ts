import { useEffect, useSyncExternalStore } from 'react';
import type { User } from '@skyport/shared';
import { listAirlineAccounts, listCustomers } from '../api/admin-api.ts';

/**
 * The administrator's lists. They are not replicated (docs/architecture.md §1: administration is online-only),
 * so each is read from the server when its screen opens, again when the connection returns, and
 * after each action (`reloadAdminList`). One small keyed store; components read it with
 * useSyncExternalStore and never copy it into state.
 */
export type Remote<T> =
  | { status: 'loading'; data?: T }
  | { status: 'ready'; data: T }
  | { status: 'error'; error: unknown; data?: T };

type Loader = (signal: AbortSignal) => Promise<unknown>;

const LOADERS = {
  customers: (signal: AbortSignal) => listCustomers(signal),
  pendingAirlines: (signal: AbortSignal) => listAirlineAccounts('pending', signal),
  approvedAirlines: (signal: AbortSignal) => listAirlineAccounts('approved', signal),
} satisfies Record<string, Loader>;

export type AdminListKey = keyof typeof LOADERS;
type DataOf<K extends AdminListKey> = Awaited<ReturnType<(typeof LOADERS)[K]>>;

const entries = new Map<AdminListKey, Remote<unknown>>();
const requests = new Map<AdminListKey, AbortController>();
const listeners = new Set<() => void>();
const LOADING: Remote<never> = { status: 'loading' };

function emit() {
  for (const listener of listeners) listener();
}

/** Loads a list again, keeping the last answer on screen meanwhile. */
export function reloadAdminList(key: AdminListKey): Promise<void> {
  requests.get(key)?.abort();
  const controller = new AbortController();
  requests.set(key, controller);
  const previous = entries.get(key)?.data;
  entries.set(key, { status: 'loading', data: previous });
  emit();
  return LOADERS[key](controller.signal).then(
    (data) => {
      if (controller.signal.aborted) return;
      entries.set(key, { status: 'ready', data });
      emit();
    },
    (error: unknown) => {
      if (controller.signal.aborted) return;
      entries.set(key, { status: 'error', error, data: previous });
      emit();
    },
  );
}

/** Forgets every list (at logout: another user must not see them). */
export function forgetAdminLists() {
  for (const controller of requests.values()) controller.abort();
  requests.clear();
  entries.clear();
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function useAdminList<K extends AdminListKey>(key: K, enabled: boolean): Remote<DataOf<K>> {
  useEffect(() => {
    if (!enabled) return;
    void reloadAdminList(key);
    const onOnline = () => void reloadAdminList(key);
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [key, enabled]);
  return useSyncExternalStore(subscribe, () => (entries.get(key) ?? LOADING) as Remote<DataOf<K>>);
}

export const useCustomers = (enabled: boolean): Remote<User[]> =>
  useAdminList('customers', enabled);
export const usePendingAirlines = (enabled: boolean): Remote<User[]> =>
  useAdminList('pendingAirlines', enabled);
export const useApprovedAirlines = (enabled: boolean): Remote<User[]> =>
  useAdminList('approvedAirlines', enabled);
