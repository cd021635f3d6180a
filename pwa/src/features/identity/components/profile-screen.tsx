import { useState } from 'react';
import {
  ChangePasswordFormSchema,
  messages,
  specLabels,
  type ChangePasswordInput,
  type User,
} from '@skyport/shared';
import { Modal } from '../../../ui/modal.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import { UserAvatar } from '../../../ui/user-avatar.tsx';
import { ModalFormActions } from '../../../ui/form-actions.tsx';
import { FormField, inputKinds } from '../../../ui/form-field.tsx';
import { NewPasswordFields } from '../../../ui/new-password-fields.tsx';
import { useSchemaForm } from '../../../ui/use-schema-form.ts';
import { ForgotPasswordModal } from './forgot-password-modal.tsx';

export interface ProfileScreenProps {
  user: User;
  onChangePassword: (input: ChangePasswordInput) => Promise<boolean>;
  onResendVerification?: () => void;
}

function Row({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_1fr] gap-2 py-2">
      <dt className="text-base-content/80">{label}</dt>
      <dd className="break-all font-medium">{value}</dd>
    </div>
  );
}

/** /profile: Account Information with the Change Password modal. */
export function ProfileScreen({
  user,
  onChangePassword,
  onResendVerification,
}: ProfileScreenProps) {
  const [changeOpen, setChangeOpen] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);
  const fullName = [user.name, user.lastName].filter(Boolean).join(' ') || messages.emptyName;
  return (
    <div className="mx-auto w-full max-w-2xl">
      <section className="card card-border bg-base-100 shadow-sm" aria-labelledby="account-title">
        <div className="card-body gap-4">
          <div className="flex items-center gap-4">
            <UserAvatar image={user.image} size="w-20" ring placeholder />
            <div>
              <h1 id="account-title" className="text-2xl font-bold">
                {specLabels.accountInformation}
              </h1>
              <p className="text-base-content/80">{fullName}</p>
            </div>
          </div>
          <dl className="divide-y divide-base-300">
            <Row label={uiLabels.name} value={fullName} />
            <Row
              label={uiLabels.email}
              value={
                <span className="flex flex-wrap items-center gap-2">
                  {user.email}
                  <span
                    className={`badge badge-sm ${user.emailVerified ? 'badge-success' : 'badge-warning'}`}
                  >
                    {user.emailVerified
                      ? uiLabels.emailVerifiedBadge
                      : uiLabels.emailNotVerifiedBadge}
                  </span>
                </span>
              }
            />
            <Row label={uiLabels.phone} value={user.phone || messages.emptyName} />
            <Row label={uiLabels.role} value={user.role.replace('_', ' ')} />
          </dl>
          <div className="card-actions">
            <button type="button" className="btn btn-primary" onClick={() => setChangeOpen(true)}>
              {specLabels.changePassword}
            </button>
            <button type="button" className="btn btn-outline" onClick={() => setForgotOpen(true)}>
              {specLabels.forgotYourPassword}
            </button>
            {!user.emailVerified && onResendVerification ? (
              <button type="button" className="btn btn-ghost" onClick={onResendVerification}>
                {uiLabels.verifyEmailTitle}
              </button>
            ) : null}
          </div>
        </div>
      </section>
      <Modal
        open={changeOpen}
        onClose={() => setChangeOpen(false)}
        title={specLabels.changePassword}
      >
        <ChangePasswordForm
          onClose={() => setChangeOpen(false)}
          onChangePassword={onChangePassword}
        />
      </Modal>
      <ForgotPasswordModal
        open={forgotOpen}
        onClose={() => setForgotOpen(false)}
        defaultEmail={user.email}
      />
    </div>
  );
}

/** The Change Password modal's content (mounted with every opening: each starts empty). */
function ChangePasswordForm({
  onClose,
  onChangePassword,
}: {
  onClose: () => void;
  onChangePassword: (input: ChangePasswordInput) => Promise<boolean>;
}) {
  const { field, submit, busy } = useSchemaForm<
    { oldPassword: string; newPassword: string; confirmPassword: string },
    ChangePasswordInput & { confirmPassword: string }
  >(ChangePasswordFormSchema, {
    defaultValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
  });
  const change = async ({ oldPassword, newPassword }: ChangePasswordInput) => {
    if (await onChangePassword({ oldPassword, newPassword })) onClose();
  };
  return (
    <form onSubmit={submit(change)} noValidate className="flex flex-col gap-3">
      <FormField
        label={uiLabels.oldPassword}
        {...inputKinds.currentPassword}
        {...field('oldPassword')}
      />
      <NewPasswordFields password={field('newPassword')} confirmation={field('confirmPassword')} />
      <ModalFormActions onCancel={onClose} busy={busy} submitLabel={uiLabels.save} />
    </form>
  );
}
