import { expect, test } from 'vitest';
import {
  DEFAULT_PREFERENCES,
  PreferencesSchema,
  resolveTheme,
  ThemeSchema,
  toggleTheme,
} from './preferences.ts';

test('the theme is light, dark or system', () => {
  expect(ThemeSchema.options).toEqual(['light', 'dark', 'system']);
  expect(ThemeSchema.safeParse('blue').success).toBe(false);
});

test('stored preferences without a theme follow the system', () => {
  expect(PreferencesSchema.parse({})).toEqual({ theme: 'system' });
  expect(DEFAULT_PREFERENCES).toEqual({ theme: 'system' });
});

test('a chosen theme wins over the system setting', () => {
  expect(resolveTheme('light', true)).toBe('light');
  expect(resolveTheme('dark', false)).toBe('dark');
});

test('the system theme paints what the system prefers', () => {
  expect(resolveTheme('system', true)).toBe('dark');
  expect(resolveTheme('system', false)).toBe('light');
});

test('the switch picks the opposite of what is painted', () => {
  expect(toggleTheme('system', true)).toBe('light');
  expect(toggleTheme('system', false)).toBe('dark');
  expect(toggleTheme('dark', false)).toBe('light');
  expect(toggleTheme('light', true)).toBe('dark');
});
