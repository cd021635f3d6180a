import { SYNC_COLLECTION_INFO, messages, type SyncCollectionName } from '@skyport/shared';
import { checkAccess, type AccessRule } from '../features/identity/guard.ts';
import type { AuthUser } from '../features/identity/users.ts';
import { AppError, ErrorCode } from '../lib/errors.ts';

/** Who is replicating: the signed-in user the identity middleware resolved, or null for a guest. */
export type Caller = AuthUser;

/** The identity guard's rule for each kind of partition (the same rules as the REST routes). */
const PARTITION_ACCESS: Readonly<Record<'customer' | 'airline', AccessRule>> = {
  // Spec §6: cart, favourites, orders and reviews are the customer's; airlines and admins have none.
  customer: { roles: ['customer'] },
  // Sales belong to the approved airline that runs the flights.
  airline: { roles: ['airline'], approvedAirline: true },
};

/**
 * The partition a caller may replicate in a collection: `null` for the public collections, the
 * caller's user id for a customer's collections, the caller's airline id for sales.
 * `requested` is the partition the client named (a query parameter); naming any other than its
 * own is refused, so one customer never reads or writes another's favourites, cart or drafts,
 * and one airline never reads another's sales.
 * @throws AppError 401 for a guest on a personal collection, 403 for a wrong role or partition.
 */
export function resolvePartition(
  caller: Caller | null,
  collection: SyncCollectionName,
  requested?: string,
): string | null {
  const { partition } = SYNC_COLLECTION_INFO[collection];
  if (partition === 'public') {
    if (requested !== undefined)
      throw new AppError(ErrorCode.BadRequest, `${collection} has no partitions`);
    return null;
  }
  const denied = checkAccess(caller, PARTITION_ACCESS[partition]);
  if (denied) throw denied;
  const own = partition === 'customer' ? (caller?.id ?? null) : (caller?.airlineId ?? null);
  // Security: object-level authorisation; a client may only ever name its own partition.
  if (own === null || (requested !== undefined && requested.toLowerCase() !== own)) {
    throw new AppError(ErrorCode.Forbidden, messages.notAllowed, { reason: 'partition' });
  }
  return own;
}
