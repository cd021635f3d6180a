import { useState, type FormEvent } from 'react';
import type { CatalogPlaces } from '../data/catalogue.ts';
import { SearchIcon } from '../../../ui/icons.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import { SuggestingInput } from './suggesting-input.tsx';

export interface SearchBoxProps {
  origin: string;
  destination: string;
  /** Places flights serve: origins suggested for the origin, destinations for the destination. */
  places: CatalogPlaces;
  onSearch: (search: { origin: string; destination: string }) => void;
}

/**
 * Origin and destination with autocomplete. Each field suggests only where flights leave from or
 * go to (a place no flight leaves from can only give "Origin not found", spec §8). Remount it
 * with a `key` when the URL's search changes from elsewhere.
 */
export function SearchBox({ origin, destination, places, onSearch }: SearchBoxProps) {
  const [search, setSearch] = useState({ origin, destination });
  const suggestionsFor = { origin: places.origins, destination: places.destinations };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch({ origin: search.origin.trim(), destination: search.destination.trim() });
  };
  return (
    <form
      role="search"
      onSubmit={submit}
      className="grid gap-2 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
    >
      {ROUTE_ENDS.map((end) => (
        <SuggestingInput
          key={end}
          look="floating"
          label={uiLabels[end]}
          name={end}
          placeholder={uiLabels[end]}
          value={search[end]}
          onChange={(text) => setSearch((current) => ({ ...current, [end]: text }))}
          suggestions={suggestionsFor[end]}
        />
      ))}
      <button type="submit" className="btn btn-primary btn-lg">
        <SearchIcon />
        {uiLabels.search}
      </button>
    </form>
  );
}

/** The two fields, in the order a trip is read. */
const ROUTE_ENDS = ['origin', 'destination'] as const;
