import { useEffect } from 'react';
import { useLocalDataIfOpen } from '../../../data/provider.tsx';
import { followThemePreference } from '../data/theme.ts';

/**
 * Mounted once in the page frame: the switch's choices go into the preferences, and the
 * preferences' theme (for a customer, synced from their account) is painted. Renders nothing and
 * does not open the local data layer: until it is open the device's own choice (localStorage)
 * stays on screen, and a choice made meanwhile is recorded once it is.
 */
export function ThemePreferenceSync() {
  const data = useLocalDataIfOpen();
  useEffect(() => (data ? followThemePreference(data) : undefined), [data]);
  return null;
}
