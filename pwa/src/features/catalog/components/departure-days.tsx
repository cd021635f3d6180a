import { cheapestDays, daysBetween, type DepartureDay } from '@skyport/shared';
import { formatShortPrice, preferredLocale } from '../../../ui/format.ts';
import { departureLabels } from '../departure-labels.ts';

export interface DepartureDaysProps {
  /** The range's first and last day (inclusive). */
  from: string;
  to: string;
  /** The day the traveller chose (the middle of the range). */
  chosen: string;
  /** Each day with matching flights and its lowest price (the page's `departureDays`). */
  days: readonly DepartureDay[];
  /** Shows the flights of one day (the exact date). */
  onChooseDay: (date: string) => void;
}

/** "Tue, Mar 9" for a yyyy-mm-dd calendar date, in UTC so that it never moves with the zone. */
let dayFormat: Intl.DateTimeFormat | undefined;
function formatDay(date: string): string {
  dayFormat ??= new Intl.DateTimeFormat(preferredLocale(), {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
  return dayFormat.format(Date.parse(`${date}T00:00:00Z`));
}

/**
 * The flexible range day by day: each day's lowest price over every matching flight (not only
 * this page's), the cheapest day(s) marked "Cheapest day", the chosen date marked as such. A day
 * is a button that shows that day's flights; a day without flights says so and is disabled.
 */
export function DepartureDays({ from, to, chosen, days, onChooseDay }: DepartureDaysProps) {
  const byDate = new Map(days.map((day) => [day.date, day]));
  const cheapest = cheapestDays(days);
  const range = daysBetween(from, to);
  return (
    <section
      aria-labelledby="departure-days-title"
      className="card card-border bg-base-100"
      data-testid="departure-days"
    >
      <div className="card-body gap-2 p-3">
        <h3 id="departure-days-title" className="text-sm font-semibold">
          {departureLabels.daysTitle}
        </h3>
        <ul
          className={`grid gap-2 ${range.length > 3 ? 'grid-cols-4 sm:grid-cols-7' : 'grid-cols-3'}`}
        >
          {range.map((date) => {
            const day = byDate.get(date);
            const isCheapest = cheapest.has(date);
            const price = day ? formatShortPrice(day.lowestPriceCents) : undefined;
            const label = formatDay(date);
            return (
              <li key={date} className="flex">
                <button
                  type="button"
                  className={`btn h-auto min-h-0 flex-1 flex-col gap-0.5 px-1 py-2 text-xs font-normal ${
                    isCheapest ? 'btn-success btn-soft border-success' : 'btn-ghost border-base-300'
                  }`}
                  disabled={!day}
                  aria-current={date === chosen ? 'date' : undefined}
                  aria-label={
                    departureLabels.showDay(label, price) +
                    (isCheapest ? `. ${departureLabels.cheapestDay}` : '') +
                    (date === chosen ? `. ${departureLabels.chosenDay}` : '')
                  }
                  onClick={() => onChooseDay(date)}
                  data-testid="departure-day"
                  data-date={date}
                  data-cheapest={isCheapest ? 'true' : undefined}
                >
                  <span className={date === chosen ? 'font-bold underline' : undefined}>
                    {label}
                  </span>
                  <span className="text-sm font-semibold">
                    {price ?? departureLabels.noFlightsThatDay}
                  </span>
                  {isCheapest ? (
                    <span className="badge badge-success badge-xs h-auto whitespace-normal py-0.5">
                      {departureLabels.cheapestDay}
                    </span>
                  ) : null}
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
