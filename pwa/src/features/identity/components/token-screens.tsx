import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { PasswordResetFormSchema, specLabels, type PasswordResetInput } from '@skyport/shared';
import { uiLabels } from '../../../ui/labels.ts';
import { CardPage, FormCard } from '../../../ui/card-page.tsx';
import { SubmitButton } from '../../../ui/form-actions.tsx';
import { NewPasswordFields } from '../../../ui/new-password-fields.tsx';
import { useSchemaForm } from '../../../ui/use-schema-form.ts';

export type VerifyState =
  { status: 'verifying' } | { status: 'done' } | { status: 'failed'; message: string };

/** The page an email verification link opens. */
export function VerifyEmailScreen({ state }: { state: VerifyState }) {
  return (
    <CardPage>
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
    </CardPage>
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
  const { field, formState, submit, busy, setValue } = useSchemaForm<
    { token: string; password: string; confirmPassword: string },
    PasswordResetInput & { confirmPassword: string }
  >(PasswordResetFormSchema, { defaultValues: { token, password: '', confirmPassword: '' } });
  useEffect(() => {
    setValue('token', token);
  }, [token, setValue]);
  const tokenError = formState.errors.token?.message;
  return (
    <FormCard
      title={specLabels.changePassword}
      onSubmit={submit(({ token, password }) => onReset({ token, password }))}
    >
      {tokenError ? (
        <p role="alert" className="alert alert-error">
          {tokenError}
        </p>
      ) : null}
      <NewPasswordFields password={field('password')} confirmation={field('confirmPassword')} />
      <SubmitButton busy={busy}>{uiLabels.save}</SubmitButton>
    </FormCard>
  );
}
