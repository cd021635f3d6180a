import { useEffect } from 'react';
import type { User } from '@skyport/shared';
import { createStore, useStore } from '../../../lib/store.ts';
import { listAirlineAccounts, listCustomers } from '../api/admin-api.ts';

/**
 * The administrator's lists. They are not replicated (docs/architecture.md §2.2: administration is online-only),
 * so each is read from the server when its screen opens, again when the connection returns, and
 * after each action (`reloadAdminList`). One small keyed store (pwa/src/lib/store.ts); components
 * read their list with `useStore` and never copy it into state.
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

type Entries = Readonly<Partial<Record<AdminListKey, Remote<unknown>>>>;

const entries = createStore<Entries>({});
const requests = new Map<AdminListKey, AbortController>();
const LOADING: Remote<never> = { status: 'loading' };

function setEntry(key: AdminListKey, entry: Remote<unknown>) {
  entries.set({ ...entries.get(), [key]: entry });
}

/** Loads a list again, keeping the last answer on screen meanwhile. */
export function reloadAdminList(key: AdminListKey): Promise<void> {
  requests.get(key)?.abort();
  const controller = new AbortController();
  requests.set(key, controller);
  const previous = entries.get()[key]?.data;
  setEntry(key, { status: 'loading', data: previous });
  return LOADERS[key](controller.signal).then(
    (data) => {
      if (!controller.signal.aborted) setEntry(key, { status: 'ready', data });
    },
    (error: unknown) => {
      if (!controller.signal.aborted) setEntry(key, { status: 'error', error, data: previous });
    },
  );
}

/** Forgets every list (at logout: another user must not see them). */
export function forgetAdminLists() {
  for (const controller of requests.values()) controller.abort();
  requests.clear();
  entries.set({});
}

function useAdminList<K extends AdminListKey>(key: K, enabled: boolean): Remote<DataOf<K>> {
  useEffect(() => {
    if (!enabled) return;
    void reloadAdminList(key);
    const onOnline = () => void reloadAdminList(key);
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [key, enabled]);
  return useStore(entries, (lists) => (lists[key] ?? LOADING) as Remote<DataOf<K>>);
}

export const useCustomers = (enabled: boolean): Remote<User[]> =>
  useAdminList('customers', enabled);
export const usePendingAirlines = (enabled: boolean): Remote<User[]> =>
  useAdminList('pendingAirlines', enabled);
export const useApprovedAirlines = (enabled: boolean): Remote<User[]> =>
  useAdminList('approvedAirlines', enabled);
