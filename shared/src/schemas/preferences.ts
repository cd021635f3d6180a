import { z } from 'zod';

/**
 * Preferences (spec §1, §3: the light/dark switch remembered in browser storage). Design §7: the
 * theme follows the system setting until the user picks one, hence the third value.
 */

export const THEMES = ['light', 'dark', 'system'] as const;
export const ThemeSchema = z.enum(THEMES);
export type Theme = z.infer<typeof ThemeSchema>;

/** The theme actually painted. */
export type ResolvedTheme = Exclude<Theme, 'system'>;

/** Stored preferences; a missing theme means "follow the system". */
export const PreferencesSchema = z.object({
  theme: ThemeSchema.default('system'),
});
export type Preferences = z.infer<typeof PreferencesSchema>;

/** The default preferences of a new browser or account. */
export const DEFAULT_PREFERENCES: Readonly<Preferences> = Object.freeze({ theme: 'system' });

/**
 * The theme to paint: the chosen one, or for `system` dark exactly when the system prefers dark
 * (the caller reads `prefers-color-scheme`; this stays pure).
 */
export function resolveTheme(theme: Theme, systemPrefersDark: boolean): ResolvedTheme {
  if (theme === 'system') return systemPrefersDark ? 'dark' : 'light';
  return theme;
}

/** The theme after the switch is toggled: the opposite of what is painted now, never `system`. */
export function toggleTheme(theme: Theme, systemPrefersDark: boolean): ResolvedTheme {
  return resolveTheme(theme, systemPrefersDark) === 'dark' ? 'light' : 'dark';
}
