import { useCallback, useState } from 'react';

/**
 * System notifications of price drops (the Notification API), only where the browser has them
 * and the customer has allowed them. Permission is asked for only from the customer's own tap on
 * "Notify me of price drops" (browsers ignore, and users resent, a prompt on load); nothing here
 * asks by itself.
 */

export type NotificationState = 'unsupported' | NotificationPermission;

/** Whether this browser can show notifications and what the customer decided. */
export function notificationState(): NotificationState {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.permission;
}

/** Asks the browser's permission; call only from a user gesture (a click). */
export async function askForNotifications(): Promise<NotificationState> {
  if (typeof Notification === 'undefined') return 'unsupported';
  if (Notification.permission !== 'default') return Notification.permission;
  try {
    return await Notification.requestPermission();
  } catch {
    return notificationState();
  }
}

/**
 * Shows a system notification if the customer allowed them; otherwise does nothing (the in-app
 * notice is shown anyway). Through the service worker where there is one: Chrome on Android
 * refuses `new Notification()` on a page. `tag` replaces an earlier notification of the same
 * drop (another tab may report it too).
 */
export async function showSystemNotification(
  title: string,
  body: string,
  tag: string,
): Promise<void> {
  if (notificationState() !== 'granted') return;
  const options: NotificationOptions = { body, tag, icon: '/icons/icon-192.png' };
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    if (registration) {
      await registration.showNotification(title, options);
      return;
    }
    new Notification(title, options);
  } catch {
    // The browser refused (a policy, a headless browser): the in-app notice stands alone.
  }
}

/** The permission as the favourites screen shows it, and the button's action. */
export function useNotificationPermission(): {
  state: NotificationState;
  ask: () => Promise<void>;
} {
  const [state, setState] = useState<NotificationState>(notificationState);
  const ask = useCallback(async () => setState(await askForNotifications()), []);
  return { state, ask };
}
