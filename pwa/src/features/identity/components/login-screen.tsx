import { useState } from 'react';
import { Link } from 'react-router-dom';
import { LoginInputSchema, specLabels, type LoginInput } from '@skyport/shared';
import { uiLabels } from '../../../ui/labels.ts';
import { FormField } from '../../../ui/form-field.tsx';
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
  const { register, formState, submit, busy } = useSchemaForm<
    { email: string; password: string },
    LoginInput
  >(LoginInputSchema, { defaultValues: { email: '', password: '' } });
  const { errors } = formState;

  return (
    <div className="mx-auto flex w-full max-w-md flex-col gap-4">
      <div className="card card-border bg-base-100 shadow-sm">
        <form className="card-body gap-4" onSubmit={submit(onLogIn)} noValidate>
          <h1 className="card-title text-2xl">{specLabels.logIn}</h1>
          <FormField
            label={uiLabels.email}
            type="email"
            autoComplete="email"
            error={errors.email}
            required
            {...register('email')}
          />
          <FormField
            label={uiLabels.password}
            type="password"
            autoComplete="current-password"
            error={errors.password}
            required
            {...register('password')}
          />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? (
              <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            ) : null}
            {specLabels.logIn}
          </button>
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
          <p className="text-sm">
            {uiLabels.noAccount}{' '}
            <Link to="/register" className="link link-primary">
              {uiLabels.signUp}
            </Link>
          </p>
        </form>
      </div>
      <ForgotPasswordModal open={forgotOpen} onClose={() => setForgotOpen(false)} />
    </div>
  );
}
