import { useEffect, useState } from 'react';
import { useLocalData } from '../../../data/provider.tsx';
import { useObservable } from '../../../data/use-observable.ts';
import { ticketKeys$, writeTicketKeys, type StoredTicketKeys } from '../../../db/local-state.ts';
import { useOnline } from '../../../ui/online.ts';
import { fetchTicketKeys } from '../api/tickets-api.ts';

/**
 * The ticket key set this device keeps (an RxDB local document, db/local-state.ts), so that a
 * ticket verifies with no connection on any device that was online once: `undefined` while it is
 * read, `null` when the device has none yet.
 */
export function useTicketKeys(): StoredTicketKeys | null | undefined {
  const data = useLocalData();
  return useObservable(() => ticketKeys$(data.db), [data]);
}

/** Where the last attempt to update the keys stands. */
export type KeyRefresh = 'refreshing' | 'updated' | 'failed' | 'offline';

/**
 * Fetches the key set whenever the device is (or comes back) online and keeps it on the device,
 * replacing the one it had: the server publishes every key whose tickets may still be valid.
 */
export function useTicketKeyRefresh(): KeyRefresh {
  const data = useLocalData();
  const online = useOnline();
  const [result, setResult] = useState<{ online: boolean; state: KeyRefresh } | null>(null);
  useEffect(() => {
    if (!online) return;
    const controller = new AbortController();
    fetchTicketKeys(controller.signal)
      .then((jwks) => writeTicketKeys(data.db, jwks, Date.now()))
      .then(
        () => setResult({ online, state: 'updated' }),
        () => {
          if (!controller.signal.aborted) setResult({ online, state: 'failed' });
        },
      );
    return () => controller.abort();
  }, [data, online]);
  if (!online) return 'offline';
  // The answer of an earlier connection is not this one's.
  return result?.online === online ? result.state : 'refreshing';
}
