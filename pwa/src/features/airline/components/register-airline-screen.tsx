import { FormProvider } from 'react-hook-form';
import {
  RegisterAirlineInputSchema,
  messages,
  specLabels,
  type RegisterAirlineInput,
} from '@skyport/shared';
import { airlineLabels } from '../labels.ts';
import { AccountSwitchLink, FormCard } from '../../../ui/card-page.tsx';
import { SubmitButton } from '../../../ui/form-actions.tsx';
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
  // The terms alone have their own message (spec §5); any other field: "Complete all fields".
  const onlyTerms = Object.keys(errors).every((key) => key === 'terms' || key === 'root');
  const formError = form.failed
    ? onlyTerms
      ? messages.agreeToTerms
      : messages.completeAllFields
    : undefined;
  return (
    <FormProvider {...form}>
      <FormCard
        title={specLabels.addYourAirline}
        titleId="register-airline-title"
        width="xl"
        onSubmit={form.submit(onRegister)}
      >
        <AccountFields
          labels={AIRLINE_LABELS}
          nameAutoComplete="organization"
          imagePlaceholder="https://example.com/logo.png"
        />
        <FormField label={airlineLabels.terms} layout="inline" {...form.field('terms')} />
        {formError ? (
          <p role="alert" className="alert alert-error alert-soft" data-testid="form-error">
            {formError}
          </p>
        ) : null}
        <SubmitButton
          busy={form.busy}
          disabled={!online}
          aria-describedby={online ? undefined : 'register-airline-offline'}
        >
          {airlineLabels.sendRequest}
        </SubmitButton>
        {online ? null : (
          <p
            id="register-airline-offline"
            role="status"
            className="alert alert-warning alert-soft text-sm"
          >
            {airlineLabels.offlineRegister}
          </p>
        )}
        <AccountSwitchLink
          question={airlineLabels.haveAccount}
          to="/login"
          label={airlineLabels.logIn}
        />
      </FormCard>
    </FormProvider>
  );
}
