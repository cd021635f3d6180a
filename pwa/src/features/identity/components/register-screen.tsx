import { Link } from 'react-router-dom';
import { FormProvider } from 'react-hook-form';
import {
  RegisterCustomerInputSchema,
  messages,
  specLabels,
  type RegisterCustomerInput,
} from '@skyport/shared';
import { uiLabels } from '../../../ui/labels.ts';
import { useSchemaForm } from '../../../ui/use-schema-form.ts';
import {
  AccountFields,
  EMPTY_ACCOUNT_VALUES,
  type AccountValues,
} from '../../../ui/account-fields.tsx';

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
  const form = useSchemaForm<AccountValues, RegisterCustomerInput>(RegisterCustomerInputSchema, {
    defaultValues: EMPTY_ACCOUNT_VALUES,
  });
  return (
    <div className="mx-auto w-full max-w-xl">
      <div className="card card-border bg-base-100 shadow-sm">
        <FormProvider {...form}>
          <form className="card-body gap-4" onSubmit={form.submit(onRegister)} noValidate>
            <h1 className="card-title text-2xl">{specLabels.createYourAccount}</h1>
            <AccountFields labels={CUSTOMER_LABELS} />
            {form.failed ? (
              <p role="alert" className="alert alert-error alert-soft">
                {messages.completeAllFields}
              </p>
            ) : null}
            <button type="submit" className="btn btn-primary" disabled={form.busy}>
              {form.busy ? (
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
        </FormProvider>
      </div>
    </div>
  );
}
