import { setThemeChoice, useTheme } from './theme.ts';
import { uiLabels } from './labels.ts';
import { MoonIcon, SunIcon } from './icons.tsx';

/** Toggles light/dark; the choice persists on this device and stops following the system. */
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
      onClick={() => setThemeChoice(next)}
    >
      {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
