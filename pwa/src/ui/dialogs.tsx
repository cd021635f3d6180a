import { createStore, useStore } from '../lib/store.ts';
import { Modal } from './modal.tsx';
import { uiLabels } from './labels.ts';

/**
 * Confirmation and error pop-ups (the spec's "Are you sure?" and "Oops..." dialogs), callable
 * from anywhere: `await confirmDialog({...})` resolves true when confirmed, `alertDialog` when
 * dismissed. One host renders them (in the layout).
 */
export interface DialogRequest {
  title: string;
  text?: string;
  /** Confirm button text; an alert has only this button. */
  confirmLabel?: string;
  cancelLabel?: string;
  tone?: 'error' | 'warning' | 'info' | 'success';
  kind: 'confirm' | 'alert';
}

interface PendingDialog extends DialogRequest {
  resolve: (confirmed: boolean) => void;
}

const current = createStore<PendingDialog | null>(null);

function open(request: DialogRequest): Promise<boolean> {
  current.get()?.resolve(false);
  return new Promise<boolean>((resolve) => current.set({ ...request, resolve }));
}

function settle(confirmed: boolean) {
  const dialog = current.get();
  current.set(null);
  dialog?.resolve(confirmed);
}

export function confirmDialog(request: Omit<DialogRequest, 'kind'>): Promise<boolean> {
  return open({ tone: 'warning', ...request, kind: 'confirm' });
}

export async function alertDialog(
  request: Omit<DialogRequest, 'kind' | 'cancelLabel'>,
): Promise<void> {
  await open({ tone: 'error', ...request, kind: 'alert' });
}

const toneClass = {
  error: 'text-error',
  warning: 'text-warning',
  info: 'text-info',
  success: 'text-success',
};

export function DialogHost() {
  const dialog = useStore(current);
  return (
    <Modal
      open={dialog !== null}
      onClose={() => settle(false)}
      title={<span className={toneClass[dialog?.tone ?? 'info']}>{dialog?.title}</span>}
      initialFocus="[data-autofocus]"
      actions={
        <>
          {dialog?.kind === 'confirm' ? (
            <button type="button" className="btn" onClick={() => settle(false)}>
              {dialog.cancelLabel ?? uiLabels.cancel}
            </button>
          ) : null}
          <button
            type="button"
            className="btn btn-primary"
            data-autofocus
            onClick={() => settle(true)}
          >
            {dialog?.confirmLabel ?? uiLabels.ok}
          </button>
        </>
      }
    >
      {dialog?.text ? <p>{dialog.text}</p> : null}
    </Modal>
  );
}
