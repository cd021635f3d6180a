import type { ButtonHTMLAttributes } from 'react';
import { uiLabels } from './labels.ts';

export interface SubmitButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** The form's action is under way: the button is disabled and shows a spinner. */
  busy: boolean;
}

/** A form's primary button; disabled while `busy` (or `disabled`), with a spinner meanwhile. */
export function SubmitButton({ busy, disabled, children, ...button }: SubmitButtonProps) {
  return (
    <button type="submit" className="btn btn-primary" disabled={busy || disabled} {...button}>
      {busy ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

/** Cancel and the submit button under a form inside a modal. */
export function ModalFormActions({
  onCancel,
  busy,
  submitLabel,
}: {
  onCancel: () => void;
  busy: boolean;
  submitLabel: string;
}) {
  return (
    <div className="modal-action mt-2">
      <button type="button" className="btn" onClick={onCancel}>
        {uiLabels.cancel}
      </button>
      <SubmitButton busy={busy}>{submitLabel}</SubmitButton>
    </div>
  );
}
