import { FormProvider } from 'react-hook-form';
import {
  RegisterCustomerInputSchema,
  messages,
  specLabels,
  type RegisterCustomerInput,
} from '@skyport/shared';
import { uiLabels } from '../../../ui/labels.ts';
import { AccountSwitchLink, FormCard } from '../../../ui/card-page.tsx';
import { SubmitButton } from '../../../ui/form-actions.tsx';
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
    <FormProvider {...form}>
      <FormCard title={specLabels.createYourAccount} width="xl" onSubmit={form.submit(onRegister)}>
        <AccountFields labels={CUSTOMER_LABELS} />
        {form.failed ? (
          <p role="alert" className="alert alert-error alert-soft">
            {messages.completeAllFields}
          </p>
        ) : null}
        <SubmitButton busy={form.busy}>{specLabels.createYourAccount}</SubmitButton>
        <AccountSwitchLink question={uiLabels.haveAccount} to="/login" label={specLabels.logIn} />
      </FormCard>
    </FormProvider>
  );
}
