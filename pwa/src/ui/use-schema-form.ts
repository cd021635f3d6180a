import {
  get,
  useForm,
  type FieldError,
  type FieldValues,
  type Path,
  type RegisterOptions,
  type Resolver,
  type UseFormProps,
} from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';

export interface SchemaFormOptions<TValues extends FieldValues, TOutput> extends Omit<
  UseFormProps<TValues, unknown, TOutput>,
  'resolver'
> {
  /** Turns the typed values into what the schema parses (e.g. a number field's text to a number). */
  prepare?: (values: TValues) => unknown;
}

/**
 * A shared schema as react-hook-form's resolver. The form's values are what its inputs hold (text,
 * a checkbox's boolean); the schema judges them and gives the parsed values to the submit handler,
 * and each field's first message is its error. `prepare` maps the values first.
 */
export function schemaResolver<TValues extends FieldValues, TOutput>(
  schema: z.ZodType<TOutput>,
  prepare?: (values: TValues) => unknown,
): Resolver<TValues, unknown, TOutput> {
  const resolve = zodResolver(schema as z.ZodType<TOutput, FieldValues>);
  return ((values: TValues, context, options) =>
    resolve(
      (prepare ? prepare(values) : values) as FieldValues,
      context,
      options as Parameters<typeof resolve>[2],
    )) as Resolver<TValues, unknown, TOutput>;
}

/**
 * react-hook-form with a shared schema, as every form of the PWA uses it: validation on submit,
 * then live on every change (`reValidateMode: 'onChange'`); the first field in error gets focus.
 * On top of `useForm` it gives the submit-with-busy-state pattern:
 *
 * - `submit(action)`: validates, then awaits `action(parsed)`; a text it returns is shown as the
 *   form's server error (`serverError`, cleared by the next submit). An error it throws is not
 *   caught (the screens' callbacks handle their own failures, as before).
 * - `busy`: an `action` is under way (react-hook-form's `isSubmitting`).
 * - `failed`: the last submit was refused by the schema and a field is still in error (the
 *   forms' "Complete all fields" banners).
 * - `field(name)`: what a `FormField` spreads for a plain input, `register(name)` and the field's
 *   own error, so that a field never shows another one's message.
 */
export function useSchemaForm<TValues extends FieldValues, TOutput>(
  schema: z.ZodType<TOutput>,
  { prepare, ...options }: SchemaFormOptions<TValues, TOutput>,
) {
  const form = useForm<TValues, unknown, TOutput>({
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    ...options,
    resolver: schemaResolver(schema, prepare),
  });
  const { errors, isSubmitting, isSubmitted } = form.formState;
  const serverError = errors.root?.['server']?.message;
  const failed = isSubmitted && Object.keys(errors).some((key) => key !== 'root');
  const submit =
    (
      action: (values: TOutput) => string | null | void | Promise<string | null | void>,
      onInvalid?: Parameters<typeof form.handleSubmit>[1],
    ) =>
    (event?: React.BaseSyntheticEvent) =>
      form.handleSubmit(async (values) => {
        const message = await action(values);
        if (typeof message === 'string') form.setError('root.server', { message });
      }, onInvalid)(event);
  const field = (name: Path<TValues>, rules?: RegisterOptions<TValues, Path<TValues>>) => ({
    ...form.register(name, rules),
    error: get(errors, name) as FieldError | undefined,
  });
  return {
    ...form,
    field,
    busy: isSubmitting,
    serverError,
    failed,
    submit,
    setServerError: (message: string) => form.setError('root.server', { message }),
  };
}
