import { Link } from 'react-router-dom';
import { FormProvider } from 'react-hook-form';
import {
  RegisterAirlineInputSchema,
  messages,
  specLabels,
  type RegisterAirlineInput,
} from '@skyport/shared';
import { airlineLabels } from '../labels.ts';
import { FormField } from '../../../ui/form-field.tsx';
import { useSchemaForm } from '../../../ui/use-schema-form.ts';
import {
  AccountFields,
  EMPTY_ACCOUNT_VALUES,
  type AccountValues,
} from '../../../ui/account-fields.tsx';

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
  const form = useSchemaForm<AccountValues & { terms: boolean }, RegisterAirlineInput>(
    RegisterAirlineInputSchema,
    { defaultValues: { ...EMPTY_ACCOUNT_VALUES, terms: false } },
  );
  const { errors } = form.formState;
  const busy = form.busy;
  // The terms alone have their own message (spec §5); any other field: "Complete all fields".
  const onlyTerms = Object.keys(errors).every((key) => key === 'terms' || key === 'root');
  const formError = form.failed
    ? onlyTerms
      ? messages.agreeToTerms
      : messages.completeAllFields
    : undefined;
  return (
    <div className="mx-auto w-full max-w-xl">
      <div className="card card-border bg-base-100 shadow-sm">
        <FormProvider {...form}>
          <form
            className="card-body gap-4"
            onSubmit={form.submit(onRegister)}
            noValidate
            aria-labelledby="register-airline-title"
          >
            <h1 id="register-airline-title" className="card-title text-2xl">
              {specLabels.addYourAirline}
            </h1>
            <AccountFields
              labels={AIRLINE_LABELS}
              nameAutoComplete="organization"
              imagePlaceholder="https://example.com/logo.png"
            />
            <FormField
              label={airlineLabels.terms}
              layout="inline"
              error={errors.terms}
              {...form.register('terms')}
            />
            {formError ? (
              <p role="alert" className="alert alert-error alert-soft" data-testid="form-error">
                {formError}
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
        </FormProvider>
      </div>
    </div>
  );
}
