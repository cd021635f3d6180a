import { useState, type FormEvent } from 'react';
import { PasswordResetRequestInputSchema, messages, specLabels } from '@skyport/shared';
import { Modal } from '../../../ui/modal.tsx';
import { showToast } from '../../../ui/toast.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import { reportApiError } from '../../../app/api-client.ts';
import { requestPasswordReset } from '../api/identity-api.ts';
import { Field, fieldErrors } from '../../../ui/field.tsx';

/** "Forgot your password": an email ("Please enter an email"), then "Check your email". */
export function ForgotPasswordModal({
  open,
  onClose,
  defaultEmail = '',
}: {
  open: boolean;
  onClose: () => void;
  defaultEmail?: string;
}) {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = PasswordResetRequestInputSchema.safeParse({
      email: new FormData(event.currentTarget).get('email'),
    });
    if (!parsed.success) {
      setError(fieldErrors(parsed.error.issues).email ?? messages.enterAnEmail);
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await requestPasswordReset(parsed.data);
      showToast(messages.checkYourEmail, 'success');
      onClose();
    } catch (failure) {
      reportApiError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} onClose={onClose} title={specLabels.forgotYourPassword}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4" id="forgot-form">
        <Field
          label={uiLabels.email}
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={defaultEmail}
          error={error}
        />
        <div className="modal-action mt-0">
          <button type="button" className="btn" onClick={onClose}>
            {uiLabels.cancel}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {uiLabels.send}
          </button>
        </div>
      </form>
    </Modal>
  );
}
