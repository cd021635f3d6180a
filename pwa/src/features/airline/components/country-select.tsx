import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { COUNTRIES, findCountryByName, isCountryName, type Country } from '@skyport/shared';
import { CountryFlag } from '../../../ui/country-flag.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { airlineLabels } from '../labels.ts';

/** Lower case without accents: "Côte" and "cote" match. */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}

const FOLDED = COUNTRIES.map((country) => ({ country, key: fold(country.name) }));

/** Countries whose name starts with the text first, then those that contain it. */
export function searchCountries(text: string): Country[] {
  const query = fold(text);
  if (query === '') return COUNTRIES.slice();
  const starts: Country[] = [];
  const contains: Country[] = [];
  for (const { country, key } of FOLDED) {
    if (key.startsWith(query)) starts.push(country);
    else if (key.includes(query)) contains.push(country);
  }
  return [...starts, ...contains];
}

export interface CountrySelectProps {
  label: string;
  name: string;
  /** The chosen country's name, or what the user typed (the form's rules judge it). */
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}

/**
 * A searchable country list with flags (spec §5: "chosen from a country list of about 250
 * entries with flag images"), as an ARIA 1.2 combobox: type to filter, arrows to move, Enter to
 * choose, Escape to close the list (without closing the dialog around it). Flags are the bundled
 * flag-icons images, which work offline once seen.
 */
export function CountrySelect({ label, name, value, onChange, error }: CountrySelectProps) {
  const id = useId();
  const listId = `${id}-list`;
  const [query, setQuery] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);
  const matches = useMemo(() => searchCountries(query ?? ''), [query]);
  const optionId = (index: number) => `${id}-option-${index}`;
  const activeOptionId = optionId(active);

  useEffect(() => {
    if (!open) return;
    listRef.current
      ?.querySelector(`[id="${CSS.escape(activeOptionId)}"]`)
      ?.scrollIntoView({ block: 'nearest' });
  }, [activeOptionId, open]);

  const choose = (country: Country) => {
    onChange(country.name);
    setQuery(null);
    setOpen(false);
  };

  const settle = () => {
    // Typed text that names a country (any case or accents) becomes the list's exact name.
    if (query !== null) {
      const found = findCountryByName(query);
      if (found) onChange(found.name);
    }
    setQuery(null);
    setOpen(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) {
          setOpen(true);
          setActive(
            Math.max(
              0,
              matches.findIndex((country) => country.name === value),
            ),
          );
        } else setActive((index) => Math.min(matches.length - 1, index + 1));
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (open) setActive((index) => Math.max(0, index - 1));
        break;
      case 'Home':
      case 'End':
        if (open) {
          event.preventDefault();
          setActive(event.key === 'Home' ? 0 : matches.length - 1);
        }
        break;
      case 'Enter': {
        const country = matches[active];
        if (open && country) {
          event.preventDefault();
          choose(country);
        }
        break;
      }
      case 'Escape':
        if (open) {
          // Closes the list only; the dialog stays open.
          event.preventDefault();
          event.stopPropagation();
          setOpen(false);
          setQuery(null);
        }
        break;
      case 'Tab':
        settle();
        break;
    }
  };

  const shown = query ?? value;
  const activeCountry = open ? matches[active] : undefined;
  return (
    <FormField label={label} id={id} name={name} error={error}>
      {(aria) => (
        <div className="relative">
          <div className={`input w-full ${error ? 'input-error' : ''}`}>
            {isCountryName(value) && query === null ? (
              <CountryFlag country={value} />
            ) : (
              <SearchGlyph />
            )}
            <input
              {...aria}
              name={name}
              type="text"
              role="combobox"
              className="grow"
              autoComplete="off"
              spellCheck={false}
              placeholder={airlineLabels.searchCountry}
              value={shown}
              aria-expanded={open}
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={activeCountry ? activeOptionId : undefined}
              onChange={(event) => {
                setQuery(event.target.value);
                onChange(event.target.value);
                setOpen(true);
                setActive(0);
              }}
              onClick={() => setOpen(true)}
              onKeyDown={onKeyDown}
              onBlur={settle}
              data-testid={`country-${name}`}
            />
          </div>
          <ul
            ref={listRef}
            id={listId}
            role="listbox"
            aria-label={label}
            hidden={!open}
            className="absolute left-0 right-0 top-full z-20 mt-1 max-h-60 overflow-y-auto rounded-box border border-base-300 bg-base-100 p-1 shadow-lg"
          >
            {matches.length === 0 ? (
              <li className="px-3 py-2 text-sm text-base-content/70" role="presentation">
                {airlineLabels.noCountry}
              </li>
            ) : (
              matches.map((country, index) => (
                <li
                  key={country.code}
                  id={optionId(index)}
                  role="option"
                  aria-selected={country.name === value}
                  className={`flex cursor-pointer items-center gap-2 rounded-field px-3 py-1.5 text-sm ${
                    index === active ? 'bg-primary text-primary-content' : 'hover:bg-base-200'
                  }`}
                  // mousedown, not click: the input keeps focus, so its blur does not close the list first.
                  onMouseDown={(event) => {
                    event.preventDefault();
                    choose(country);
                  }}
                  onMouseMove={() => setActive(index)}
                >
                  <CountryFlag country={country.name} />
                  <span>{country.name}</span>
                </li>
              ))
            )}
          </ul>
        </div>
      )}
    </FormField>
  );
}

function SearchGlyph() {
  return (
    <svg
      viewBox="0 0 24 24"
      className="size-4 opacity-60"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </svg>
  );
}
