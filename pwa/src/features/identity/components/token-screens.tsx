import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { PasswordResetFormSchema, specLabels, type PasswordResetInput } from '@skyport/shared';
import { uiLabels } from '../../../ui/labels.ts';
import { FormField } from '../../../ui/form-field.tsx';
import { useSchemaForm } from '../../../ui/use-schema-form.ts';

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
  // The link's token is judged with the typed passwords (an invalid one is the form's alert).
  const { register, formState, submit, busy, setValue } = useSchemaForm<
    { token: string; password: string; confirmPassword: string },
    PasswordResetInput & { confirmPassword: string }
  >(PasswordResetFormSchema, { defaultValues: { token, password: '', confirmPassword: '' } });
  useEffect(() => {
    setValue('token', token);
  }, [token, setValue]);
  const { errors } = formState;
  return (
    <div className="mx-auto w-full max-w-md">
      <div className="card card-border bg-base-100 shadow-sm">
        <form
          className="card-body gap-4"
          onSubmit={submit(({ token, password }) => onReset({ token, password }))}
          noValidate
        >
          <h1 className="card-title text-2xl">{specLabels.changePassword}</h1>
          {errors.token ? (
            <p role="alert" className="alert alert-error">
              {errors.token.message}
            </p>
          ) : null}
          <FormField
            label={uiLabels.newPassword}
            type="password"
            autoComplete="new-password"
            error={errors.password}
            {...register('password')}
          />
          <FormField
            label={uiLabels.confirmPassword}
            type="password"
            autoComplete="new-password"
            error={errors.confirmPassword}
            {...register('confirmPassword')}
          />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {uiLabels.save}
          </button>
        </form>
      </div>
    </div>
  );
}
