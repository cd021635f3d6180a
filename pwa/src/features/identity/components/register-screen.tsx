import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import {
  RegisterCustomerInputSchema,
  messages,
  specLabels,
  type RegisterCustomerInput,
} from '@skyport/shared';
import { uiLabels } from '../../../ui/labels.ts';
import { fieldErrors } from '../../../ui/field.tsx';
import { AccountFields, accountValues } from '../../../ui/account-fields.tsx';

const CUSTOMER_LABELS = {
  name: uiLabels.firstName,
  lastName: uiLabels.lastName,
  image: uiLabels.imageUrl,
  email: uiLabels.email,
  phone: uiLabels.phone,
  password: uiLabels.password,
  confirmPassword: uiLabels.confirmPassword,
};

/** /register: Create your account (customer) with the §5 rules and messages. */
export function RegisterScreen({
  onRegister,
}: {
  onRegister: (input: RegisterCustomerInput) => Promise<void>;
}) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = RegisterCustomerInputSchema.safeParse(accountValues(form));
    if (!parsed.success) {
      setErrors({ ...fieldErrors(parsed.error.issues), form: messages.completeAllFields });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await onRegister(parsed.data);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="mx-auto w-full max-w-xl">
      <div className="card card-border bg-base-100 shadow-sm">
        <form className="card-body gap-4" onSubmit={submit} noValidate>
          <h1 className="card-title text-2xl">{specLabels.createYourAccount}</h1>
          <AccountFields labels={CUSTOMER_LABELS} errors={errors} />
          {errors.form ? (
            <p role="alert" className="alert alert-error alert-soft">
              {errors.form}
            </p>
          ) : null}
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? (
              <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            ) : null}
            {specLabels.createYourAccount}
          </button>
          <p className="text-sm">
            {uiLabels.haveAccount}{' '}
            <Link to="/login" className="link link-primary">
              {specLabels.logIn}
            </Link>
          </p>
        </form>
      </div>
    </div>
  );
}
