import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField, inputKinds, type FieldMessage } from './form-field.tsx';
import { uiLabels } from './labels.ts';

/** A registered input and its error, as `useSchemaForm`'s `field(name)` gives them. */
export type RegisteredField = UseFormRegisterReturn & { error: FieldMessage };

/** A new password and its confirmation: the change and the reset password forms. */
export function NewPasswordFields({
  password,
  confirmation,
}: {
  password: RegisteredField;
  confirmation: RegisteredField;
}) {
  return (
    <>
      <FormField label={uiLabels.newPassword} {...inputKinds.newPassword} {...password} />
      <FormField label={uiLabels.confirmPassword} {...inputKinds.newPassword} {...confirmation} />
    </>
  );
}
