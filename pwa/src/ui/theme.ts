import { useSyncExternalStore } from 'react';
import { createListeners } from '../lib/store.ts';

/** An explicit choice; `system` means no choice yet: daisyUI follows prefers-color-scheme. */
export type ThemeChoice = 'light' | 'dark' | 'system';
export type Theme = 'light' | 'dark';

/** Read by the inline script in index.html before the first paint; keep both in step. */
export const THEME_STORAGE_KEY = 'skyport:theme';

const themeChanged = createListeners();
const recorders = new Set<(choice: ThemeChoice) => void>();
const systemDark =
  typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;

function readChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

let choice: ThemeChoice = readChoice();

function emit() {
  themeChanged.notify();
}

/**
 * data-theme on <html> picks the brand theme of src/styles.css (none: the system's), and the
 * browser's bar takes that theme's colour (index.html's `theme-color` metas); the inline script
 * in index.html does the same before the first paint.
 */
function paint() {
  if (choice === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', choice);
  for (const meta of document.querySelectorAll('meta[data-theme-color]')) {
    const own = meta.getAttribute('data-theme-color');
    const media =
      choice === 'system' ? `(prefers-color-scheme: ${own})` : own === choice ? 'all' : 'not all';
    meta.setAttribute('media', media);
  }
}

/** The theme on screen now: the choice, or the system's when there is none. */
export function effectiveTheme(): Theme {
  if (choice !== 'system') return choice;
  return systemDark?.matches ? 'dark' : 'light';
}

/** The choice this device paints now (`system` until one is made). */
export function themeChoice(): ThemeChoice {
  return choice;
}

/**
 * Paints a choice at once and mirrors it in localStorage for the inline script, without
 * recording it: for a choice that is already recorded (the preferences, another tab).
 */
export function applyThemeChoice(next: ThemeChoice) {
  if (next === choice) return;
  choice = next;
  try {
    if (next === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, next);
  } catch {
    // Storage can be full or blocked: the theme still applies for this visit.
  }
  paint();
  emit();
}

/** A choice made while nothing recorded choices (the data layer still opening). */
let unrecorded: ThemeChoice | null = null;

/** The user's choice: painted at once, then handed to the recorders (the preferences). */
export function chooseTheme(next: ThemeChoice) {
  applyThemeChoice(next);
  unrecorded = recorders.size === 0 ? next : null;
  for (const record of recorders) record(next);
}

/**
 * Registers what records the user's choices (the app's preferences, which follow a customer to
 * other devices), handing it at once a choice made before any recorder was there; returns the
 * unregistration. Recorded values come back through `applyThemeChoice`.
 */
export function onThemeChosen(record: (choice: ThemeChoice) => void): () => void {
  recorders.add(record);
  if (unrecorded) record(unrecorded);
  unrecorded = null;
  return () => recorders.delete(record);
}

function subscribe(listener: () => void) {
  const unsubscribe = themeChanged.subscribe(listener);
  systemDark?.addEventListener('change', listener);
  const onStorage = (event: StorageEvent) => {
    // Another tab chose a theme.
    if (event.key !== THEME_STORAGE_KEY) return;
    choice = readChoice();
    paint();
    emit();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    unsubscribe();
    systemDark?.removeEventListener('change', listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The theme on screen, following the system until the user chooses. */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, effectiveTheme, () => 'light');
}
