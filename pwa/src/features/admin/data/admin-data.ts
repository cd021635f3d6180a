import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { User } from '@skyport/shared';
import { listAirlineAccounts, listCustomers } from '../api/admin-api.ts';

/**
 * The administrator's lists. They are not replicated (docs/architecture.md §2.2: administration
 * is online-only), so each is a TanStack Query query (decision 035): read from the server when
 * its screen opens, again when the connection returns, and after each action that changes it
 * (`useInvalidateAdminLists`). The last answer stays on screen while the list is read again.
 */
export type Remote<T> =
  | { status: 'loading'; data?: T }
  | { status: 'ready'; data: T }
  | { status: 'error'; error: unknown; data?: T };

/** Each list's query key; every key starts with `admin`. */
const adminListKeys = {
  customers: ['admin', 'customers'],
  pendingAirlines: ['admin', 'airlines', 'pending'],
  approvedAirlines: ['admin', 'airlines', 'approved'],
} as const;

export type AdminListKey = keyof typeof adminListKeys;

const LOADERS: Record<AdminListKey, (signal: AbortSignal) => Promise<User[]>> = {
  customers: (signal) => listCustomers(signal),
  pendingAirlines: (signal) => listAirlineAccounts('pending', signal),
  approvedAirlines: (signal) => listAirlineAccounts('approved', signal),
};

/** A query's state as the lists show it (loader, failure with retry, empty text or table). */
function remoteOf<T>(query: UseQueryResult<T>): Remote<T> {
  if (query.status === 'error') return { status: 'error', error: query.error, data: query.data };
  if (query.status === 'success' && !query.isFetching) return { status: 'ready', data: query.data };
  return { status: 'loading', data: query.data };
}

function useAdminList(key: AdminListKey): Remote<User[]> {
  return remoteOf(
    useQuery({ queryKey: adminListKeys[key], queryFn: ({ signal }) => LOADERS[key](signal) }),
  );
}

export const useCustomers = (): Remote<User[]> => useAdminList('customers');
export const usePendingAirlines = (): Remote<User[]> => useAdminList('pendingAirlines');
export const useApprovedAirlines = (): Remote<User[]> => useAdminList('approvedAirlines');

/**
 * Reads lists again after an action that changed them: a list on screen at once (its last answer
 * stays meanwhile, a request already under way is replaced), the others when they next open.
 */
export function useInvalidateAdminLists(): (...keys: AdminListKey[]) => Promise<void> {
  const client = useQueryClient();
  return async (...keys) => {
    await Promise.all(
      keys.map((key) => client.invalidateQueries({ queryKey: adminListKeys[key] })),
    );
  };
}
