import { useEffect } from 'react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { TOAST_MS } from '@skyport/shared';
import { uiLabels } from './labels.ts';

/**
 * Registers the service worker and, when a new version is waiting, asks before switching to it
 * (registerType "prompt"): nothing reloads behind the user's back.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    offlineReady: [offlineReady, setOfflineReady],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      // Look for a new version every hour while the app stays open.
      if (registration)
        setInterval(() => void registration.update().catch(() => undefined), 60 * 60 * 1000);
    },
  });

  useEffect(() => {
    // "Ready to work offline" is news, not a question: it goes away by itself.
    if (!offlineReady) return;
    const timer = setTimeout(() => setOfflineReady(false), TOAST_MS);
    return () => clearTimeout(timer);
  }, [offlineReady, setOfflineReady]);

  if (!needRefresh && !offlineReady) return null;
  return (
    <div
      className="toast toast-bottom toast-end z-[1000]"
      role="status"
      aria-live="polite"
      data-testid="update-prompt"
    >
      <div className="alert alert-info shadow-lg">
        <span>{needRefresh ? uiLabels.updateAvailable : uiLabels.offlineReady}</span>
        <div className="flex gap-2">
          {needRefresh ? (
            <button
              type="button"
              className="btn btn-sm btn-primary"
              onClick={() => void updateServiceWorker(true)}
            >
              {uiLabels.updateNow}
            </button>
          ) : null}
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => {
              setNeedRefresh(false);
              setOfflineReady(false);
            }}
          >
            {needRefresh ? uiLabels.updateLater : uiLabels.close}
          </button>
        </div>
      </div>
    </div>
  );
}
