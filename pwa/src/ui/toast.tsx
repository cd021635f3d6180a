import { TOAST_MS } from '@skyport/shared';
import { createStore, useStore } from '../lib/store.ts';
import { uiLabels } from './labels.ts';

export type ToastKind = 'success' | 'error' | 'info' | 'warning';

export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

const toasts = createStore<readonly Toast[]>([]);
let nextId = 1;

function dismissToast(id: number) {
  toasts.set(toasts.get().filter((toast) => toast.id !== id));
}

/**
 * Shows a toast at the top right for `durationMs` (the spec's 3 s by default; pass
 * TOAST_LOGOUT_MS or TOAST_FEEDBACK_MS where the spec says so). Usable outside React.
 */
export function showToast(
  text: string,
  kind: ToastKind = 'success',
  durationMs: number = TOAST_MS,
): number {
  const id = nextId++;
  toasts.set([...toasts.get(), { id, kind, text }]);
  setTimeout(() => dismissToast(id), durationMs);
  return id;
}

const alertClass: Record<ToastKind, string> = {
  success: 'alert-success',
  error: 'alert-error',
  info: 'alert-info',
  warning: 'alert-warning',
};

/** The toast region: polite for confirmations, assertive for errors. */
export function Toaster() {
  const current = useStore(toasts);
  return (
    <div
      className="toast toast-top toast-end z-[1000] mt-14 max-w-[calc(100vw-2rem)]"
      aria-live="polite"
      role="status"
    >
      {current.map((toast) => (
        <div
          key={toast.id}
          role={toast.kind === 'error' ? 'alert' : undefined}
          className={`alert ${alertClass[toast.kind]} shadow-lg`}
          data-testid="toast"
        >
          <span>{toast.text}</span>
          <button
            type="button"
            className="btn btn-ghost btn-xs btn-circle"
            aria-label={uiLabels.close}
            onClick={() => dismissToast(toast.id)}
          >
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
