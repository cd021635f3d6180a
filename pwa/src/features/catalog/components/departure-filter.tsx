import { useId, useState } from 'react';
import { DEPARTURE_FLEX_DAYS, type DepartureFlex } from '@skyport/shared';
import type { DepartureChoice } from '../data/catalogue.ts';
import { departureLabels } from '../departure-labels.ts';

export interface DepartureFilterProps {
  /** The date and flexibility in the URL; undefined: any date. */
  choice: DepartureChoice | undefined;
  /** A new choice (undefined: any date). Applied at once, like the other filters. */
  onChange: (choice: DepartureChoice | undefined) => void;
}

/** The field's bounds: four-digit years, and room for ± 3 days before the year 10000. */
const MIN_DATE = '1000-01-01';
const MAX_DATE = '9999-12-28';

/**
 * The departure date and how flexible the traveller is about it (exact, ± 1 day, ± 3 days), as a
 * native date field and a group of radio buttons (keyboard and screen readers work as usual).
 * Both keep what the traveller did on screen at once (the URL follows a moment later, in a
 * transition) and follow the URL when it changes from elsewhere (the day strip, back, reset). A
 * date still being typed (a year of one digit) stays in the field and changes nothing; a
 * flexibility picked before any date is kept for the date.
 */
export function DepartureFilter({ choice, onChange }: DepartureFilterProps) {
  const urlDate = choice?.date ?? '';
  const urlFlex: DepartureFlex = choice?.flex ?? 0;
  const [date, setDate] = useState(urlDate);
  const [flex, setFlex] = useState<DepartureFlex>(urlFlex);
  // What the URL said when last rendered: a change of it (not of the fields) overrides the fields.
  const [seen, setSeen] = useState({ date: urlDate, flex: urlFlex });
  if (seen.date !== urlDate || seen.flex !== urlFlex) {
    setSeen({ date: urlDate, flex: urlFlex });
    setDate(urlDate);
    setFlex(urlFlex);
  }
  const flexName = useId();
  const hintId = useId();
  return (
    <div
      className="grid gap-2 sm:grid-cols-[1fr_auto] sm:items-center"
      data-testid="departure-filter"
    >
      <label className="floating-label">
        <span>{departureLabels.departureDate}</span>
        <input
          type="date"
          className="input input-lg w-full"
          name="date"
          min={MIN_DATE}
          max={MAX_DATE}
          value={date}
          onChange={(event) => {
            const typed = event.target.value;
            setDate(typed);
            if (typed === '') onChange(undefined);
            else if (typed >= MIN_DATE && typed <= MAX_DATE) onChange({ date: typed, flex });
          }}
        />
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <fieldset className="join" aria-describedby={choice ? undefined : hintId}>
          <legend className="sr-only">{departureLabels.flexibility}</legend>
          {DEPARTURE_FLEX_DAYS.map((days) => (
            <input
              key={days}
              type="radio"
              className="join-item btn btn-sm sm:btn-md"
              name={flexName}
              value={days}
              aria-label={departureLabels.flex[days]}
              checked={flex === days}
              onChange={() => {
                setFlex(days);
                if (choice) onChange({ date: choice.date, flex: days });
              }}
              data-testid={`departure-flex-${days}`}
            />
          ))}
        </fieldset>
        {choice ? (
          <button
            type="button"
            className="btn btn-ghost btn-sm sm:btn-md"
            aria-label={departureLabels.clearDateLabel}
            onClick={() => {
              setDate('');
              onChange(undefined);
            }}
          >
            {departureLabels.clearDate}
          </button>
        ) : (
          <span id={hintId} className="sr-only">
            {departureLabels.flexNeedsDate}
          </span>
        )}
      </div>
    </div>
  );
}
