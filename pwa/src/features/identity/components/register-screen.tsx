import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import {
  RegisterCustomerInputSchema,
  messages,
  specLabels,
  type RegisterCustomerInput,
} from '@skyport/shared';
import { uiLabels } from '../../../ui/labels.ts';
import { TextField, fieldErrors } from './form-field.tsx';

const FIELDS = ['name', 'lastName', 'image', 'email', 'phone', 'password', 'confirmPassword'] as const;

/** /register: Create your account (customer) with the §5 rules and messages. */
export function RegisterScreen({ onRegister }: { onRegister: (input: RegisterCustomerInput) => Promise<void> }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = Object.fromEntries(FIELDS.map((field) => [field, String(form.get(field) ?? '')]));
    const parsed = RegisterCustomerInputSchema.safeParse(values);
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
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label={uiLabels.firstName} name="name" autoComplete="given-name" error={errors.name} />
            <TextField label={uiLabels.lastName} name="lastName" autoComplete="family-name" error={errors.lastName} />
          </div>
          <TextField label={uiLabels.imageUrl} name="image" type="url" inputMode="url" error={errors.image} />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label={uiLabels.email} name="email" type="email" autoComplete="email" error={errors.email} />
            <TextField label={uiLabels.phone} name="phone" type="tel" autoComplete="tel" error={errors.phone} />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label={uiLabels.password} name="password" type="password" autoComplete="new-password" error={errors.password} />
            <TextField
              label={uiLabels.confirmPassword}
              name="confirmPassword"
              type="password"
              autoComplete="new-password"
              error={errors.confirmPassword}
            />
          </div>
          {errors.form ? (
            <p role="alert" className="alert alert-error alert-soft">
              {errors.form}
            </p>
          ) : null}
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : null}
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
