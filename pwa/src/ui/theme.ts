import { useSyncExternalStore } from 'react';

/** An explicit choice; `system` means no choice yet: daisyUI follows prefers-color-scheme. */
export type ThemeChoice = 'light' | 'dark' | 'system';
export type Theme = 'light' | 'dark';

/** Read by the inline script in index.html before the first paint; keep both in step. */
export const THEME_STORAGE_KEY = 'skyport:theme';

const listeners = new Set<() => void>();
const systemDark = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;

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
  for (const listener of listeners) listener();
}

function apply() {
  if (choice === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', choice);
}

/** The theme on screen now: the choice, or the system's when there is none. */
export function effectiveTheme(): Theme {
  if (choice !== 'system') return choice;
  return systemDark?.matches ? 'dark' : 'light';
}

/** Remembers the choice on this device and applies it at once. */
export function setThemeChoice(next: ThemeChoice) {
  choice = next;
  try {
    if (next === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, next);
  } catch {
    // Storage can be full or blocked: the theme still applies for this visit.
  }
  apply();
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  systemDark?.addEventListener('change', listener);
  const onStorage = (event: StorageEvent) => {
    // Another tab chose a theme.
    if (event.key !== THEME_STORAGE_KEY) return;
    choice = readChoice();
    apply();
    emit();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    systemDark?.removeEventListener('change', listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The theme on screen, following the system until the user chooses. */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, effectiveTheme, () => 'light');
}
