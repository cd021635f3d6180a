import { of, switchMap, type Observable } from 'rxjs';
import type { Theme } from '@skyport/shared';
import { localTheme$, writeLocalTheme } from '../../../db/local-state.ts';
import { applyThemeChoice, onThemeChosen, themeChoice } from '../../../ui/theme.ts';
import type { LocalData } from '../../../data/local-data.ts';

/**
 * The theme (spec §1: remembered in browser storage): the device's choice, kept locally before
 * any login; a customer's is also their replicated preference, so it follows them to other devices.
 */
export function theme$(data: LocalData): Observable<Theme> {
  return data.engine.user$.pipe(
    switchMap((user) =>
      user?.role === 'customer'
        ? data.db.collections.preferences
            .findOne(user.id)
            .$.pipe(switchMap((doc) => (doc ? of(doc.theme) : localTheme$(data.db))))
        : localTheme$(data.db),
    ),
  );
}

export async function setTheme(data: LocalData, theme: Theme): Promise<void> {
  await writeLocalTheme(data.db, theme);
  const user = data.engine.user;
  if (user?.role === 'customer') {
    await data.db.collections.preferences.upsert({ id: user.id, userId: user.id, theme });
  }
}

/** What paints the theme and hears the user's choices: ui/theme.ts in the app, a fake in tests. */
export interface ThemePainter {
  choice(): Theme;
  apply(theme: Theme): void;
  onChosen(record: (theme: Theme) => void): () => void;
}

const screenPainter: ThemePainter = {
  choice: themeChoice,
  apply: applyThemeChoice,
  onChosen: onThemeChosen,
};

/**
 * Makes the preferences the one source of the theme on screen: the user's choice (painted at once
 * by the switch) is recorded with `setTheme`, and the recorded theme is painted whenever it
 * changes, so a customer's preference arriving from another device switches the page. Painting
 * records nothing, so the two directions cannot feed each other. Returns the stop function.
 */
export function followThemePreference(
  data: LocalData,
  painter: ThemePainter = screenPainter,
): () => void {
  // While the user's own choices are being written the live value can still be an older one
  // (two quick toggles); painting it would flash the theme just left.
  let writing = 0;
  let first = true;
  const stopRecording = painter.onChosen((theme) => {
    writing += 1;
    setTheme(data, theme)
      .catch((error: unknown) => console.error('The theme could not be saved', error))
      .finally(() => (writing -= 1));
  });
  const subscription = theme$(data).subscribe((theme) => {
    if (first) {
      first = false;
      // A choice only this device's storage holds (made before the preferences recorded themes,
      // or outlived a fresh local database) is kept and recorded on the device, not lost.
      const onDevice = painter.choice();
      if (theme === 'system' && onDevice !== 'system') {
        void writeLocalTheme(data.db, onDevice).catch(() => undefined);
        return;
      }
    }
    if (writing === 0) painter.apply(theme);
  });
  return () => {
    stopRecording();
    subscription.unsubscribe();
  };
}
