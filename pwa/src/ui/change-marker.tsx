import { changeLabels } from './change-labels.ts';

/** The latest change of an item as a marker shows it (sync/change-states.ts `ItemChangeState`). */
export type ChangeMarkerState =
  { kind: 'waiting'; since: number } | { kind: 'refused'; reason: string } | { kind: 'conflict' };

/**
 * A small marker on an item (a cart line, a favourite) whose latest change has not simply reached
 * the server: "Waiting to send", "Refused: reason" or "Also changed on another device". The
 * pending changes page (/changes) says more and offers the way out.
 */
export function ChangeMarker({ state }: { state: ChangeMarkerState | undefined }) {
  if (!state) return null;
  const [className, text] =
    state.kind === 'waiting'
      ? ['badge-warning', changeLabels.waiting]
      : state.kind === 'refused'
        ? ['badge-error', changeLabels.refused(state.reason)]
        : ['badge-info', changeLabels.conflict];
  return (
    <p
      className={`badge badge-sm h-auto py-0.5 text-left ${className}`}
      data-testid="change-marker"
      data-state={state.kind}
    >
      {text}
    </p>
  );
}
