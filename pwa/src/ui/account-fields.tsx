import { useFormContext } from 'react-hook-form';
import { FormField } from './form-field.tsx';

/** The fields of a new account, customer and airline alike (spec §5). */
export const ACCOUNT_FIELDS = [
  'name',
  'lastName',
  'image',
  'email',
  'phone',
  'password',
  'confirmPassword',
] as const;
export type AccountField = (typeof ACCOUNT_FIELDS)[number];
/** The account fields as typed (the shared schemas parse them). */
export type AccountValues = Record<AccountField, string>;

/** An empty account form. */
export const EMPTY_ACCOUNT_VALUES: AccountValues = {
  name: '',
  lastName: '',
  image: '',
  email: '',
  phone: '',
  password: '',
  confirmPassword: '',
};

export interface AccountFieldsProps {
  labels: Record<AccountField, string>;
  /** `given-name` for a person; an airline's "first name" is its name (`organization`). */
  nameAutoComplete?: string;
  imagePlaceholder?: string;
}

/**
 * Names, image, email and phone, password twice: the registration forms' shared part. Inside a
 * react-hook-form `FormProvider` whose values include `AccountValues`.
 */
export function AccountFields({
  labels,
  nameAutoComplete = 'given-name',
  imagePlaceholder,
}: AccountFieldsProps) {
  const {
    register,
    formState: { errors },
  } = useFormContext<AccountValues>();
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label={labels.name}
          autoComplete={nameAutoComplete}
          error={errors.name}
          {...register('name')}
        />
        <FormField
          label={labels.lastName}
          autoComplete="family-name"
          error={errors.lastName}
          {...register('lastName')}
        />
      </div>
      <FormField
        label={labels.image}
        type="url"
        inputMode="url"
        placeholder={imagePlaceholder}
        error={errors.image}
        {...register('image')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label={labels.email}
          type="email"
          autoComplete="email"
          error={errors.email}
          {...register('email')}
        />
        <FormField
          label={labels.phone}
          type="tel"
          autoComplete="tel"
          error={errors.phone}
          {...register('phone')}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label={labels.password}
          type="password"
          autoComplete="new-password"
          error={errors.password}
          {...register('password')}
        />
        <FormField
          label={labels.confirmPassword}
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword}
          {...register('confirmPassword')}
        />
      </div>
    </>
  );
}
