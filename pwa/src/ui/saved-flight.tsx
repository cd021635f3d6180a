import { useId, type ReactNode } from 'react';
import { isFlightAvailable, type MaybeDeletedLine } from '@skyport/shared';
import { TrashIcon } from './icons.tsx';
import { uiLabels } from './labels.ts';

/**
 * The parts a flight kept for later shows (a cart line, a favourite). Such a flight may have been
 * deleted by its airline since: it stays, marked "No longer available", until the user removes it.
 */

/** The airline's name, with the "No longer available" badge when the flight is gone. */
export function SavedFlightName({
  airlineName,
  available,
  badgeTestId,
}: {
  airlineName: string;
  available: boolean;
  badgeTestId: string;
}) {
  return (
    <p className="flex flex-wrap items-center gap-2 font-semibold">
      {airlineName}
      {available ? null : (
        <span className="badge badge-warning font-semibold" data-testid={badgeTestId}>
          {uiLabels.noLongerAvailable}
        </span>
      )}
    </p>
  );
}

/** A price (`children`, formatted); a gone flight's is struck through and read out as such. */
export function SavedFlightPrice({
  available,
  className,
  children,
}: {
  available: boolean;
  className: string;
  children: ReactNode;
}) {
  return (
    <p className={`${className}${available ? '' : ' text-base-content/60 line-through'}`}>
      {available ? null : <span className="sr-only">{uiLabels.noLongerAvailable}: </span>}
      {children}
    </p>
  );
}

/** The trash button that takes the flight off the list; `label` names what it removes. */
export function RemoveButton({
  label,
  onClick,
  testId,
}: {
  label: string;
  onClick: () => void;
  testId: string;
}) {
  return (
    <button
      type="button"
      className="btn btn-sm btn-ghost text-error"
      aria-label={label}
      onClick={onClick}
      data-testid={testId}
    >
      <TrashIcon />
    </button>
  );
}

export interface SavedFlightListProps<T> {
  /** The page's heading, which names the section. */
  title: ReactNode;
  items: readonly T[];
  /** What an empty list says. */
  emptyText: string;
  /** Shown under the heading, above the list (notes, options of the list). */
  intro?: ReactNode;
  /** The list's classes (a column, a grid). */
  listClassName: string;
  /** Test ids of the empty text, the list and each item (`data-available` tells a gone flight). */
  testIds: { empty: string; list: string; item: string };
  /** Draws an item inside its card; `available` is false once its flight is gone. */
  children: (item: T, available: boolean) => ReactNode;
}

/** A page listing flights kept for later: its heading, then the cards or the empty text. */
export function SavedFlightList<T extends MaybeDeletedLine & { flightId: string }>({
  title,
  items,
  emptyText,
  intro,
  listClassName,
  testIds,
  children,
}: SavedFlightListProps<T>) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="flex flex-col gap-4">
      <h1 id={titleId} className="flex items-center gap-2 text-2xl font-bold">
        {title}
      </h1>
      {intro}
      {items.length === 0 ? (
        <p className="text-base-content/80" data-testid={testIds.empty}>
          {emptyText}
        </p>
      ) : (
        <ul className={listClassName} data-testid={testIds.list}>
          {items.map((item) => {
            const available = isFlightAvailable(item);
            return (
              <li
                key={item.flightId}
                className="card card-border bg-base-100"
                data-testid={testIds.item}
                data-available={available}
              >
                {children(item, available)}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
