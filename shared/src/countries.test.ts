import { expect, test } from 'vitest';
import {
  COUNTRIES,
  countryCodeByName,
  countryNameByCode,
  findCountryByName,
  isCountryName,
} from './countries.ts';

test('the list holds the 249 assigned ISO 3166-1 countries', () => {
  expect(COUNTRIES).toHaveLength(249);
});

test('every code is two upper-case letters and appears once', () => {
  const codes = COUNTRIES.map((c) => c.code);
  expect(new Set(codes).size).toBe(codes.length);
  for (const code of codes) expect(code).toMatch(/^[A-Z]{2}$/);
});

test('every name appears once, even ignoring case and accents', () => {
  const keys = COUNTRIES.map((c) => findCountryByName(c.name)?.code);
  expect(new Set(keys).size).toBe(COUNTRIES.length);
});

test('every name is trimmed and non-empty', () => {
  for (const { name } of COUNTRIES) {
    expect(name.length).toBeGreaterThan(0);
    expect(name.trim()).toBe(name);
  }
});

test('the list is sorted by English name', () => {
  const names = COUNTRIES.map((c) => c.name);
  expect([...names].sort((a, b) => a.localeCompare(b, 'en'))).toEqual(names);
});

test('a listed name is a country name and a near miss is not', () => {
  expect(isCountryName('Argentina')).toBe(true);
  expect(isCountryName('Åland Islands')).toBe(true);
  expect(isCountryName('argentina')).toBe(false);
  expect(isCountryName(' Argentina')).toBe(false);
  expect(isCountryName('Atlantis')).toBe(false);
  expect(isCountryName('')).toBe(false);
});

test('a name gives its alpha-2 code and an unknown one gives nothing', () => {
  expect(countryCodeByName('Argentina')).toBe('AR');
  expect(countryCodeByName('United Kingdom')).toBe('GB');
  expect(countryCodeByName("Côte d'Ivoire")).toBe('CI');
  expect(countryCodeByName('Narnia')).toBeUndefined();
});

test('a code gives its name in either case', () => {
  expect(countryNameByCode('es')).toBe('Spain');
  expect(countryNameByCode('US')).toBe('United States');
  expect(countryNameByCode('XK')).toBeUndefined();
});

test('a loose name match ignores case, accents, apostrophe style and spaces', () => {
  expect(findCountryByName('  cote d’ivoire ')?.name).toBe("Côte d'Ivoire");
  expect(findCountryByName('CURACAO')?.code).toBe('CW');
  expect(findCountryByName('bosnia   and herzegovina')?.code).toBe('BA');
  expect(findCountryByName('Aland Islands')?.code).toBe('AX');
  expect(findCountryByName('Nowhere')).toBeUndefined();
});

test('names and codes round-trip for the whole list', () => {
  for (const { code, name } of COUNTRIES) {
    expect(countryCodeByName(name)).toBe(code);
    expect(countryNameByCode(code)).toBe(name);
  }
});
