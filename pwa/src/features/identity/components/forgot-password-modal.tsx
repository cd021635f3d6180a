import {
  PasswordResetRequestInputSchema,
  messages,
  specLabels,
  type PasswordResetRequestInput,
} from '@skyport/shared';
import { Modal } from '../../../ui/modal.tsx';
import { showToast } from '../../../ui/toast.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import { reportApiError } from '../../../api/api-client.ts';
import { requestPasswordReset } from '../api/identity-api.ts';
import { ModalFormActions } from '../../../ui/form-actions.tsx';
import { FormField, inputKinds } from '../../../ui/form-field.tsx';
import { useSchemaForm } from '../../../ui/use-schema-form.ts';

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
  return (
    <Modal open={open} onClose={onClose} title={specLabels.forgotYourPassword}>
      {/* The modal renders its content only while open: every opening starts a fresh form. */}
      <ForgotPasswordForm onClose={onClose} defaultEmail={defaultEmail} />
    </Modal>
  );
}

function ForgotPasswordForm({
  onClose,
  defaultEmail,
}: {
  onClose: () => void;
  defaultEmail: string;
}) {
  const { field, submit, busy } = useSchemaForm<{ email: string }, PasswordResetRequestInput>(
    PasswordResetRequestInputSchema,
    { defaultValues: { email: defaultEmail } },
  );
  const send = async (input: PasswordResetRequestInput) => {
    try {
      await requestPasswordReset(input);
      showToast(messages.checkYourEmail, 'success');
      onClose();
    } catch (failure) {
      reportApiError(failure);
    }
  };
  return (
    <form onSubmit={submit(send)} noValidate className="flex flex-col gap-4" id="forgot-form">
      <FormField label={uiLabels.email} {...inputKinds.email} {...field('email')} />
      <ModalFormActions onCancel={onClose} busy={busy} submitLabel={uiLabels.send} />
    </form>
  );
}
