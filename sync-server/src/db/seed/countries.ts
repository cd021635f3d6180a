import { COUNTRIES, type CountryName } from '@skyport/shared';

/** The 249 country names of the flight form (shared/src/countries.ts), as flights store them. */
export const ALL_COUNTRIES: readonly CountryName[] = COUNTRIES.map((country) => country.name);

/** Rough world regions, used to give demo flights plausible durations and prices. */
export type Region =
  'south-america' | 'north-america' | 'europe' | 'africa' | 'middle-east' | 'asia' | 'oceania';

/**
 * The sixty countries the demo catalogue flies between, with their region: well-known
 * destinations whose English names are unambiguous, so the search box finds them as typed.
 */
export const DEMO_COUNTRY_REGIONS: Readonly<Partial<Record<CountryName, Region>>> = {
  Argentina: 'south-america',
  Bolivia: 'south-america',
  Brazil: 'south-america',
  Chile: 'south-america',
  Colombia: 'south-america',
  Ecuador: 'south-america',
  Paraguay: 'south-america',
  Peru: 'south-america',
  Uruguay: 'south-america',
  Venezuela: 'south-america',
  Canada: 'north-america',
  'Costa Rica': 'north-america',
  Cuba: 'north-america',
  'Dominican Republic': 'north-america',
  Guatemala: 'north-america',
  Jamaica: 'north-america',
  Mexico: 'north-america',
  Panama: 'north-america',
  'United States': 'north-america',
  Austria: 'europe',
  Belgium: 'europe',
  Croatia: 'europe',
  Czechia: 'europe',
  Denmark: 'europe',
  Finland: 'europe',
  France: 'europe',
  Germany: 'europe',
  Greece: 'europe',
  Hungary: 'europe',
  Iceland: 'europe',
  Ireland: 'europe',
  Italy: 'europe',
  Netherlands: 'europe',
  Norway: 'europe',
  Poland: 'europe',
  Portugal: 'europe',
  Spain: 'europe',
  Sweden: 'europe',
  Switzerland: 'europe',
  'United Kingdom': 'europe',
  Egypt: 'africa',
  Kenya: 'africa',
  Morocco: 'africa',
  'South Africa': 'africa',
  Israel: 'middle-east',
  Qatar: 'middle-east',
  Turkey: 'middle-east',
  'United Arab Emirates': 'middle-east',
  China: 'asia',
  India: 'asia',
  Indonesia: 'asia',
  Japan: 'asia',
  Malaysia: 'asia',
  Philippines: 'asia',
  Singapore: 'asia',
  'South Korea': 'asia',
  Thailand: 'asia',
  Vietnam: 'asia',
  Australia: 'oceania',
  'New Zealand': 'oceania',
};

export const DEMO_COUNTRIES = Object.keys(DEMO_COUNTRY_REGIONS) as CountryName[];
