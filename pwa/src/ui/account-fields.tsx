import { Field } from './field.tsx';

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

/** The account fields' values in a submitted form, as text (the shared schemas parse them). */
export function accountValues(form: FormData): Record<AccountField, string> {
  return Object.fromEntries(
    ACCOUNT_FIELDS.map((field) => [field, String(form.get(field) ?? '')]),
  ) as Record<AccountField, string>;
}

export interface AccountFieldsProps {
  labels: Record<AccountField, string>;
  errors: Partial<Record<string, string>>;
  /** `given-name` for a person; an airline's "first name" is its name (`organization`). */
  nameAutoComplete?: string;
  imagePlaceholder?: string;
}

/** Names, image, email and phone, password twice: the registration forms' shared part. */
export function AccountFields({
  labels,
  errors,
  nameAutoComplete = 'given-name',
  imagePlaceholder,
}: AccountFieldsProps) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={labels.name}
          name="name"
          autoComplete={nameAutoComplete}
          error={errors.name}
        />
        <Field
          label={labels.lastName}
          name="lastName"
          autoComplete="family-name"
          error={errors.lastName}
        />
      </div>
      <Field
        label={labels.image}
        name="image"
        type="url"
        inputMode="url"
        placeholder={imagePlaceholder}
        error={errors.image}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={labels.email}
          name="email"
          type="email"
          autoComplete="email"
          error={errors.email}
        />
        <Field
          label={labels.phone}
          name="phone"
          type="tel"
          autoComplete="tel"
          error={errors.phone}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={labels.password}
          name="password"
          type="password"
          autoComplete="new-password"
          error={errors.password}
        />
        <Field
          label={labels.confirmPassword}
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword}
        />
      </div>
    </>
  );
}
