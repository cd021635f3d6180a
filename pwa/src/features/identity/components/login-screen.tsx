import { useState } from 'react';
import { LoginInputSchema, specLabels, type LoginInput } from '@skyport/shared';
import { uiLabels } from '../../../ui/labels.ts';
import { AccountSwitchLink, FormCard } from '../../../ui/card-page.tsx';
import { SubmitButton } from '../../../ui/form-actions.tsx';
import { FormField, inputKinds } from '../../../ui/form-field.tsx';
import { useSchemaForm } from '../../../ui/use-schema-form.ts';
import { ForgotPasswordModal } from './forgot-password-modal.tsx';

export interface LoginScreenProps {
  onLogIn: (input: LoginInput) => Promise<void>;
  /** Rendered only when the Firebase adapter is configured. */
  googleButton?: React.ReactNode;
}

/** /login: email and password, Google sign-in when offered, sign-up link, Forgot your password. */
export function LoginScreen({ onLogIn, googleButton }: LoginScreenProps) {
  const [forgotOpen, setForgotOpen] = useState(false);
  const { field, submit, busy } = useSchemaForm<{ email: string; password: string }, LoginInput>(
    LoginInputSchema,
    { defaultValues: { email: '', password: '' } },
  );
  return (
    <>
      <FormCard title={specLabels.logIn} onSubmit={submit(onLogIn)}>
        <FormField label={uiLabels.email} {...inputKinds.email} required {...field('email')} />
        <FormField
          label={uiLabels.password}
          {...inputKinds.currentPassword}
          required
          {...field('password')}
        />
        <SubmitButton busy={busy}>{specLabels.logIn}</SubmitButton>
        <button
          type="button"
          className="link link-primary self-start text-sm"
          onClick={() => setForgotOpen(true)}
        >
          {specLabels.forgotYourPassword}
        </button>
        {googleButton ? (
          <>
            <div className="divider my-0">{uiLabels.or}</div>
            {googleButton}
          </>
        ) : null}
        <AccountSwitchLink question={uiLabels.noAccount} to="/register" label={uiLabels.signUp} />
      </FormCard>
      {/* A dialog of its own, outside the login form (forms do not nest). */}
      <ForgotPasswordModal open={forgotOpen} onClose={() => setForgotOpen(false)} />
    </>
  );
}
