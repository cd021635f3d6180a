import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import {
  CATALOG_SORTS,
  specLabels,
  type Airline,
  type CatalogSort,
  type PriceBand,
} from '@skyport/shared';
import { uiLabels } from '../../../ui/labels.ts';
import { SuggestingInput } from './suggesting-input.tsx';
import { departureLabels } from '../departure-labels.ts';

/** The slider's four marks, left to right, as the spec lists them. */
const SLIDER_BANDS: readonly PriceBand[] = ['low', 'mid', 'high', 'all'];
const bandLabel: Record<PriceBand, string> = {
  low: specLabels.bandLow,
  mid: specLabels.bandMid,
  high: specLabels.bandHigh,
  all: specLabels.bandAll,
};
const sortLabel: Record<CatalogSort, string> = {
  initial: specLabels.sortInitial,
  price_desc: specLabels.sortPriceDesc,
  price_asc: specLabels.sortPriceAsc,
  airline_asc: specLabels.sortAirlineAsc,
  airline_desc: specLabels.sortAirlineDesc,
  stock_desc: specLabels.sortStockDesc,
  stock_asc: specLabels.sortStockAsc,
  fastest: departureLabels.sortFastest,
};

export interface FilterPanelProps {
  sort: CatalogSort;
  band: PriceBand;
  airlineId: string | undefined;
  airlines: readonly Airline[];
  onSortChange: (sort: CatalogSort) => void;
  onBandChange: (band: PriceBand) => void;
  onAirlineChange: (airlineId: string | undefined) => void;
  onReset: () => void;
}

/** Order (the spec's six orders, initial and fastest), the four-mark price slider, airline autocomplete, reset. */
export function FilterPanel(props: FilterPanelProps) {
  const { sort, band, airlineId, airlines, onSortChange, onBandChange, onAirlineChange, onReset } =
    props;
  const bandIndex = Math.max(0, SLIDER_BANDS.indexOf(band));
  const selectedAirline = airlines.find((airline) => airline.id === airlineId);
  return (
    <section aria-labelledby="filters-title" className="card card-border bg-base-100">
      <div className="card-body gap-4 p-4">
        <h2 id="filters-title" className="card-title text-base">
          {uiLabels.filters}
        </h2>
        <div className="flex flex-col gap-1">
          <label htmlFor="catalog-sort" className="text-sm font-medium">
            {uiLabels.orderBy}
          </label>
          <select
            id="catalog-sort"
            className="select w-full"
            name="sort"
            value={sort}
            onChange={(event) => onSortChange(event.target.value as CatalogSort)}
          >
            {CATALOG_SORTS.map((value) => (
              <option key={value} value={value}>
                {sortLabel[value]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="price-band" className="text-sm font-medium">
            {uiLabels.priceRange}: <span data-testid="band-label">{bandLabel[band]}</span>
          </label>
          <input
            id="price-band"
            type="range"
            className="range range-primary range-sm w-full"
            min={0}
            max={SLIDER_BANDS.length - 1}
            step={1}
            value={bandIndex}
            aria-valuetext={bandLabel[band]}
            onChange={(event) => onBandChange(SLIDER_BANDS[Number(event.target.value)] ?? 'all')}
          />
          <div
            className="flex justify-between px-1 text-xs text-base-content/80"
            aria-hidden="true"
          >
            {SLIDER_BANDS.map((value) => (
              <span key={value} className="w-1/4 text-center first:text-left last:text-right">
                {bandLabel[value]}
              </span>
            ))}
          </div>
        </div>
        <AirlineFilter
          key={airlineId ?? 'none'}
          airlines={airlines}
          initialText={selectedAirline?.name ?? ''}
          onAirlineChange={onAirlineChange}
        />
        <button
          type="button"
          className="btn btn-outline btn-sm"
          onClick={onReset}
          data-testid="reset-filter"
        >
          {specLabels.resetFilter}
        </button>
      </div>
    </section>
  );
}

function AirlineFilter({
  airlines,
  initialText,
  onAirlineChange,
}: {
  airlines: readonly Airline[];
  initialText: string;
  onAirlineChange: (airlineId: string | undefined) => void;
}) {
  const [text, setText] = useState(initialText);
  const names = useMemo(() => [...new Set(airlines.map((airline) => airline.name))], [airlines]);
  const matchOf = (value: string) =>
    airlines.find((airline) => airline.name.toLowerCase() === value.trim().toLowerCase());
  const choose = (value: string) => {
    setText(value);
    const match = matchOf(value);
    if (match) onAirlineChange(match.id);
    else if (value.trim() === '') onAirlineChange(undefined);
  };
  // The airlines arrive with the local catalogue (on a first visit, a few seconds after the
  // page): a name typed before they did is matched when they come.
  const typed = useRef(false);
  const matchTyped = useEffectEvent(() => {
    if (!typed.current) return;
    const match = matchOf(text);
    if (match) onAirlineChange(match.id);
  });
  useEffect(() => {
    matchTyped();
    // Only a change of the airlines list matters here: typing is handled by `choose`.
  }, [airlines]);
  return (
    <SuggestingInput
      look="stacked"
      label={uiLabels.airline}
      name="airline"
      placeholder={uiLabels.anyAirline}
      value={text}
      onChange={(value) => {
        typed.current = true;
        choose(value);
      }}
      suggestions={names}
    />
  );
}
