import { CountryFlag } from './country-flag.tsx';
import { uiLabels } from './labels.ts';

/** A country with its flag, kept on one line. */
export function Place({ country }: { country: string }) {
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
      <CountryFlag country={country} />
      {country}
    </span>
  );
}

/** "Origin → Destination" with flags; screen readers hear "Origin to Destination". */
export function Route({ origin, destination }: { origin: string; destination: string }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-x-1.5">
      <Place country={origin} />
      <span aria-hidden="true">→</span>
      <span className="sr-only">{uiLabels.to}</span>
      <Place country={destination} />
    </span>
  );
}
