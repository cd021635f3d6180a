import { countryCodeByName } from '@skyport/shared';

/**
 * A country's flag from the bundled flag-icons set (`/flags/<code>.svg`, cached by the service
 * worker once seen). Decorative: the country's name is always written next to it.
 */
export function CountryFlag({
  country,
  className = 'h-3.5 w-[1.15rem]',
}: {
  country: string;
  className?: string;
}) {
  const code = countryCodeByName(country);
  if (!code) return null;
  return (
    <img
      src={`/flags/${code.toLowerCase()}.svg`}
      alt=""
      width={20}
      height={15}
      loading="lazy"
      decoding="async"
      className={`inline-block shrink-0 rounded-[2px] object-cover shadow-sm ${className}`}
    />
  );
}
