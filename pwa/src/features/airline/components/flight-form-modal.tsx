import { useId, useMemo, useState } from 'react';
import { Controller, type FieldErrors } from 'react-hook-form';
import {
  FLIGHT_DESCRIPTION_MAX_LENGTH,
  createFlightFormSchema,
  formatDurationInput,
  messages,
  type FlightForm,
  type FlightFormInput,
} from '@skyport/shared';
import { Modal } from '../../../ui/modal.tsx';
import { airlineLabels } from '../labels.ts';
import { CountrySelect } from './country-select.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { useSchemaForm } from '../../../ui/use-schema-form.ts';

/**
 * The flight modal's box: FLIGHT_MODAL_WIDTH (800) of @skyport/shared wide on screens that fit it, the full width on
 * phones. Tailwind reads class names from the source, so the number is written out here and a
 * test checks that it matches the constant.
 */
export const FLIGHT_MODAL_BOX_CLASS = 'w-full sm:w-11/12 sm:max-w-[800px]';

/** The form's values as typed (every field a string). */
export interface FlightFormValues {
  origin: string;
  destination: string;
  departureDate: string;
  departureHour: string;
  arrivalDate: string;
  arrivalHour: string;
  durationEstimated: string;
  price: string;
  stock: string;
  description: string;
}

export const EMPTY_FLIGHT_FORM: FlightFormValues = {
  origin: '',
  destination: '',
  departureDate: '',
  departureHour: '',
  arrivalDate: '',
  arrivalHour: '',
  durationEstimated: '',
  price: '',
  stock: '',
  description: '',
};

/** A stored flight's form values (see `flightFormFromFlight` in @skyport/shared). */
export function valuesFromFlightForm(input: FlightFormInput): FlightFormValues {
  return {
    origin: input.origin ?? '',
    destination: input.destination ?? '',
    departureDate: input.departureDate ?? '',
    departureHour: input.departureHour ?? '',
    arrivalDate: input.arrivalDate ?? '',
    arrivalHour: input.arrivalHour ?? '',
    durationEstimated: input.durationEstimated ?? '',
    price: input.price === undefined ? '' : String(input.price),
    stock: input.stock === undefined ? '' : String(input.stock),
    description: input.description ?? '',
  };
}

/** A number field: empty is absent (→ "Complete all fields"), anything else a number. */
function numberOrAbsent(text: string): number | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : Number(trimmed.replace(',', '.'));
}

/** Today's date on this device, yyyy-mm-dd. The server judges again by its own clock. */
export function localToday(now: Date = new Date()): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

/** What the shared flight schema parses: the typed values, price and stock as numbers. */
function flightFormInput(values: FlightFormValues) {
  return { ...values, price: numberOrAbsent(values.price), stock: numberOrAbsent(values.stock) };
}

/** Parses the typed values with the shared §5 flight rules. */
export function parseFlightForm(values: FlightFormValues, today: string) {
  return createFlightFormSchema({ today }).safeParse(flightFormInput(values));
}

/** The server's refusal as the form's errors: its field messages, and its message above Save. */
function serverErrors(
  serverError: FlightFormModalProps['serverError'],
): FieldErrors<FlightFormValues> | undefined {
  if (!serverError) return undefined;
  const errors: FieldErrors<FlightFormValues> = {
    root: {
      server: { type: 'server', message: `${airlineLabels.serverRefused} ${serverError.message}` },
    },
  };
  for (const [field, message] of Object.entries(serverError.fields)) {
    if (field in EMPTY_FLIGHT_FORM) {
      errors[field as keyof FlightFormValues] = { type: 'server', message };
    }
  }
  return errors;
}

export interface FlightFormModalProps {
  open: boolean;
  /** Editing an existing flight (its values are in `initial`), or adding one. */
  mode: 'add' | 'edit';
  initial: FlightFormValues;
  /** The server's refusal of the last attempt: a message and the fields it named. */
  serverError?: { message: string; fields: Record<string, string> } | null;
  online: boolean;
  onSubmit: (form: FlightForm, values: FlightFormValues) => void;
  onClose: () => void;
}

/**
 * The airline's flight form (spec §5) in an 800-wide modal: origin and destination from the
 * searchable country list, dates and hours, duration auto-formatted hh:mm, price and stock.
 * Every rule and message comes from the shared `createFlightFormSchema`.
 */
export function FlightFormModal({
  open,
  mode,
  initial,
  serverError,
  online,
  onSubmit,
  onClose,
}: FlightFormModalProps) {
  const today = useMemo(() => localToday(), []);
  const schema = useMemo(() => createFlightFormSchema({ today }), [today]);
  // Set once: the modal is mounted anew (a new key) for every opening.
  const [refused] = useState(() => serverErrors(serverError));
  const formId = useId();
  const {
    control,
    register,
    field: registeredField,
    formState,
    watch,
    getValues,
    clearErrors,
    submit,
    failed,
    serverError: refusal,
  } = useSchemaForm<FlightFormValues, FlightForm>(schema, {
    defaultValues: initial,
    prepare: flightFormInput,
    errors: refused,
    // Focus goes to the first field in error in the page's order (see `focusFirstError`).
    shouldFocusError: false,
  });
  const { errors, isSubmitted } = formState;
  // Before the first submit, a field the server refused loses its message once edited; after it,
  // every edit is judged again by the schema.
  const edited = (field: keyof FlightFormValues) => {
    if (!isSubmitted && errors[field]) clearErrors(field);
  };
  const onEdit = (name: keyof FlightFormValues) => ({ onChange: () => edited(name) });
  const field = (name: keyof FlightFormValues) => registeredField(name, onEdit(name));
  // Takes the user to the first field in error, once its message is on screen.
  const focusFirstError = () =>
    requestAnimationFrame(() =>
      document
        .querySelector<HTMLElement>(`[id="${CSS.escape(formId)}"] [aria-invalid="true"]`)
        ?.focus(),
    );
  const save = submit((form) => onSubmit(form, getValues()), focusFirstError);
  const countryField = (name: 'origin' | 'destination', label: string) => (
    <Controller
      control={control}
      name={name}
      render={({ field: country }) => (
        <CountrySelect
          label={label}
          name={name}
          value={country.value}
          onChange={(value) => {
            edited(name);
            country.onChange(value);
          }}
          error={errors[name]?.message}
        />
      )}
    />
  );
  const formError = failed ? messages.completeAllFieldsCorrectly : refusal;
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={mode === 'add' ? airlineLabels.addFlightTitle : airlineLabels.editFlightTitle}
      boxClassName={FLIGHT_MODAL_BOX_CLASS}
      actions={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {airlineLabels.cancel}
          </button>
          <button
            type="submit"
            form={formId}
            className="btn btn-primary"
            disabled={!online}
            data-testid="flight-form-save"
          >
            {airlineLabels.save}
          </button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        onSubmit={save}
        className="grid gap-4 sm:grid-cols-2"
        data-testid="flight-form"
      >
        {countryField('origin', airlineLabels.origin)}
        {countryField('destination', airlineLabels.destination)}
        <FormField
          label={airlineLabels.departureDate}
          type="date"
          min={today}
          {...field('departureDate')}
        />
        <FormField label={airlineLabels.departureHour} type="time" {...field('departureHour')} />
        <FormField
          label={airlineLabels.arrivalDate}
          type="date"
          min={watch('departureDate') || today}
          {...field('arrivalDate')}
        />
        <FormField label={airlineLabels.arrivalHour} type="time" {...field('arrivalHour')} />
        <div className="grid gap-4 sm:col-span-2 sm:grid-cols-3">
          <Controller
            control={control}
            name="durationEstimated"
            render={({ field: duration }) => (
              <FormField
                label={airlineLabels.duration}
                type="text"
                inputMode="numeric"
                maxLength={5}
                placeholder={airlineLabels.durationHint}
                hint={airlineLabels.durationHint}
                error={errors.durationEstimated}
                name={duration.name}
                ref={duration.ref}
                value={duration.value}
                onBlur={duration.onBlur}
                onChange={(event) => {
                  edited('durationEstimated');
                  duration.onChange(formatDurationInput(event.target.value));
                }}
              />
            )}
          />
          <FormField
            label={airlineLabels.price}
            type="number"
            inputMode="decimal"
            min={1}
            step="0.01"
            {...field('price')}
          />
          <FormField
            label={airlineLabels.stock}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            {...field('stock')}
          />
        </div>
        <div className="sm:col-span-2">
          <FormField
            label={airlineLabels.description}
            id={`${formId}-description`}
            name="description"
            error={errors.description}
          >
            {(aria) => (
              <textarea
                className="textarea w-full"
                rows={2}
                maxLength={FLIGHT_DESCRIPTION_MAX_LENGTH}
                {...aria}
                {...register('description', onEdit('description'))}
              />
            )}
          </FormField>
        </div>
        {formError ? (
          <p
            role="alert"
            className="alert alert-error alert-soft sm:col-span-2"
            data-testid="flight-form-error"
          >
            {formError}
          </p>
        ) : null}
        {online ? null : (
          <p className="alert alert-warning alert-soft text-sm sm:col-span-2" role="status">
            {airlineLabels.offlineActions}
          </p>
        )}
      </form>
    </Modal>
  );
}
