import { useId, useState, type FormEvent } from 'react';
import { SearchIcon } from '../../../ui/icons.tsx';
import { uiLabels } from '../../../ui/labels.ts';

export interface SearchBoxProps {
  origin: string;
  destination: string;
  /** Country names to suggest while typing. */
  places: readonly string[];
  onSearch: (search: { origin: string; destination: string }) => void;
}

/**
 * Origin and destination with autocomplete (a native datalist: keyboard and screen readers work
 * out of the box). Remount it with a `key` when the URL's search changes from elsewhere.
 */
export function SearchBox({ origin, destination, places, onSearch }: SearchBoxProps) {
  const [originText, setOriginText] = useState(origin);
  const [destinationText, setDestinationText] = useState(destination);
  // The suggestions (every country) join the page when a field is first focused: a few hundred
  // elements nobody sees until then would only slow the page's first paint and start-up.
  const [suggesting, setSuggesting] = useState(false);
  const suggest = () => setSuggesting(true);
  const listId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch({ origin: originText.trim(), destination: destinationText.trim() });
  };
  return (
    <form
      role="search"
      onSubmit={submit}
      className="grid gap-2 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
    >
      <label className="floating-label">
        <span>{uiLabels.origin}</span>
        <input
          className="input input-lg w-full"
          name="origin"
          list={listId}
          autoComplete="off"
          placeholder={uiLabels.origin}
          onFocus={suggest}
          value={originText}
          onChange={(event) => setOriginText(event.target.value)}
        />
      </label>
      <label className="floating-label">
        <span>{uiLabels.destination}</span>
        <input
          className="input input-lg w-full"
          name="destination"
          list={listId}
          autoComplete="off"
          placeholder={uiLabels.destination}
          onFocus={suggest}
          value={destinationText}
          onChange={(event) => setDestinationText(event.target.value)}
        />
      </label>
      {suggesting ? (
        <datalist id={listId}>
          {places.map((place) => (
            <option key={place} value={place} />
          ))}
        </datalist>
      ) : null}
      <button type="submit" className="btn btn-primary btn-lg">
        <SearchIcon />
        {uiLabels.search}
      </button>
    </form>
  );
}
