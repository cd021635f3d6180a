import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import {
  RegisterAirlineInputSchema,
  messages,
  specLabels,
  type RegisterAirlineInput,
} from '@skyport/shared';
import { airlineLabels } from '../labels.ts';
import { fieldErrors } from '../../../ui/field.tsx';
import { AccountFields, accountValues } from '../../../ui/account-fields.tsx';

const AIRLINE_LABELS = {
  name: airlineLabels.airlineName,
  lastName: airlineLabels.contactLastName,
  image: airlineLabels.logoUrl,
  email: airlineLabels.email,
  phone: airlineLabels.phone,
  password: airlineLabels.password,
  confirmPassword: airlineLabels.confirmPassword,
};

export interface RegisterAirlineScreenProps {
  /** Sends the request; resolves once the server answered (the route shows the verdict). */
  onRegister: (input: RegisterAirlineInput) => Promise<void>;
  /** Registration needs a connection; offline the button is disabled and says why. */
  online: boolean;
}

/**
 * "Add your Airline" (/register/airline, spec §5): the customer rules, the first-name field holding
 * the airline's name, a logo ending in jpg/png/gif/bmp and the terms checkbox.
 */
export function RegisterAirlineScreen({ onRegister, online }: RegisterAirlineScreenProps) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const termsId = useId();
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = { ...accountValues(form), terms: form.get('terms') === 'on' };
    const parsed = RegisterAirlineInputSchema.safeParse(values);
    if (!parsed.success) {
      const found = fieldErrors(parsed.error.issues);
      // The terms alone have their own message (spec §5); any other field: "Complete all fields".
      const onlyTerms = Object.keys(found).every((key) => key === 'terms');
      setErrors({ ...found, form: onlyTerms ? messages.agreeToTerms : messages.completeAllFields });
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
        <form
          className="card-body gap-4"
          onSubmit={submit}
          noValidate
          aria-labelledby="register-airline-title"
        >
          <h1 id="register-airline-title" className="card-title text-2xl">
            {specLabels.addYourAirline}
          </h1>
          <AccountFields
            labels={AIRLINE_LABELS}
            errors={errors}
            nameAutoComplete="organization"
            imagePlaceholder="https://example.com/logo.png"
          />
          <div className="flex flex-col gap-1">
            <label className="flex cursor-pointer items-center gap-3" htmlFor={termsId}>
              <input
                id={termsId}
                type="checkbox"
                name="terms"
                className={`checkbox checkbox-primary ${errors.terms ? 'checkbox-error' : ''}`}
                aria-invalid={errors.terms ? true : undefined}
                aria-describedby={errors.terms ? `${termsId}-error` : undefined}
              />
              <span>{airlineLabels.terms}</span>
            </label>
            {errors.terms ? (
              <p id={`${termsId}-error`} className="text-sm text-error" data-testid="error-terms">
                {errors.terms}
              </p>
            ) : null}
          </div>
          {errors.form ? (
            <p role="alert" className="alert alert-error alert-soft" data-testid="form-error">
              {errors.form}
            </p>
          ) : null}
          <button
            type="submit"
            className="btn btn-primary"
            disabled={busy || !online}
            aria-describedby={online ? undefined : 'register-airline-offline'}
          >
            {busy ? (
              <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            ) : null}
            {airlineLabels.sendRequest}
          </button>
          {online ? null : (
            <p
              id="register-airline-offline"
              role="status"
              className="alert alert-warning alert-soft text-sm"
            >
              {airlineLabels.offlineRegister}
            </p>
          )}
          <p className="text-sm">
            {airlineLabels.haveAccount}{' '}
            <Link to="/login" className="link link-primary">
              {airlineLabels.logIn}
            </Link>
          </p>
        </form>
      </div>
    </div>
  );
}
