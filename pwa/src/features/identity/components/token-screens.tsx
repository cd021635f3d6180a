import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { PasswordResetFormSchema, specLabels, type PasswordResetInput } from '@skyport/shared';
import { uiLabels } from '../../../ui/labels.ts';
import { Field, fieldErrors } from '../../../ui/field.tsx';

export type VerifyState =
  { status: 'verifying' } | { status: 'done' } | { status: 'failed'; message: string };

/** The page an email verification link opens. */
export function VerifyEmailScreen({ state }: { state: VerifyState }) {
  return (
    <div className="mx-auto w-full max-w-md">
      <div className="card card-border bg-base-100 shadow-sm">
        <div className="card-body gap-4">
          <h1 className="card-title text-2xl">{uiLabels.verifyEmailTitle}</h1>
          {state.status === 'verifying' ? (
            <p role="status" className="flex items-center gap-2">
              <span className="loading loading-spinner" aria-hidden="true" />
              {uiLabels.verifyingEmail}
            </p>
          ) : state.status === 'done' ? (
            <p role="status" className="alert alert-success" data-testid="email-verified">
              {uiLabels.emailVerified}
            </p>
          ) : (
            <p role="alert" className="alert alert-error">
              {state.message}
            </p>
          )}
          <Link to="/" className="btn btn-primary">
            {specLabels.goToHome}
          </Link>
        </div>
      </div>
    </div>
  );
}

/** The page a password reset link opens: a new password twice. */
export function ResetPasswordScreen({
  token,
  onReset,
}: {
  token: string;
  onReset: (input: PasswordResetInput) => Promise<void>;
}) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = PasswordResetFormSchema.safeParse({
      token,
      password: String(data.get('password') ?? ''),
      confirmPassword: String(data.get('confirmPassword') ?? ''),
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await onReset({ token: parsed.data.token, password: parsed.data.password });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="mx-auto w-full max-w-md">
      <div className="card card-border bg-base-100 shadow-sm">
        <form className="card-body gap-4" onSubmit={submit} noValidate>
          <h1 className="card-title text-2xl">{specLabels.changePassword}</h1>
          {errors.token ? (
            <p role="alert" className="alert alert-error">
              {errors.token}
            </p>
          ) : null}
          <Field
            label={uiLabels.newPassword}
            name="password"
            type="password"
            autoComplete="new-password"
            error={errors.password}
          />
          <Field
            label={uiLabels.confirmPassword}
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            error={errors.confirmPassword}
          />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {uiLabels.save}
          </button>
        </form>
      </div>
    </div>
  );
}
