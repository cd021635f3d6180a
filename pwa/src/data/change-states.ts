import { useMemo, useSyncExternalStore } from 'react';
import {
  itemChangeStates,
  type ChangeCollection,
  type ChangeStates,
  type ItemChangeState,
} from '../sync/change-states.ts';
import { useLocalDataIfOpen } from './provider.tsx';

const NONE: ChangeStates = { waiting: [], refused: [], conflicts: [], accepted: [] };
const none = () => NONE;
const noSubscription = () => () => {};

/**
 * Where each change made on this device stands (sync/change-states.ts), live; nothing until the
 * local data layer is open.
 */
export function useChangeStates(): ChangeStates {
  const tracker = useLocalDataIfOpen()?.engine.changes;
  return useSyncExternalStore(
    tracker?.subscribe ?? noSubscription,
    tracker?.getSnapshot ?? none,
    none,
  );
}

/** The state of each changed document of one collection, by id (for markers on items). */
export function useItemChangeStates(
  collection: ChangeCollection,
): ReadonlyMap<string, ItemChangeState> {
  const states = useChangeStates();
  return useMemo(() => itemChangeStates(states, collection), [states, collection]);
}
