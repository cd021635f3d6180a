import { chooseTheme, useTheme } from './theme.ts';
import { uiLabels } from './labels.ts';
import { MoonIcon, SunIcon } from './icons.tsx';

/**
 * Toggles light/dark at once; the choice stops following the system and is recorded by whoever
 * listens through `onThemeChosen` (the preferences: this device's, and a customer's account).
 */
export function ThemeSwitch() {
  const theme = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="btn btn-ghost btn-circle"
      aria-label={next === 'dark' ? uiLabels.themeToDark : uiLabels.themeToLight}
      title={next === 'dark' ? uiLabels.themeToDark : uiLabels.themeToLight}
      data-testid="theme-switch"
      data-theme-now={theme}
      onClick={() => chooseTheme(next)}
    >
      {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
