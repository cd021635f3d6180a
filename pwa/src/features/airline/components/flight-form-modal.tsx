import { useId, useMemo, useState, type FormEvent } from 'react';
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
import { Field, fieldErrors } from '../../../ui/field.tsx';

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

/** Parses the typed values with the shared §5 flight rules. */
export function parseFlightForm(values: FlightFormValues, today: string) {
  return createFlightFormSchema({ today }).safeParse({
    ...values,
    price: numberOrAbsent(values.price),
    stock: numberOrAbsent(values.stock),
  });
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
  const [values, setValues] = useState<FlightFormValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>(serverError?.fields ?? {});
  const today = useMemo(() => localToday(), []);
  const formId = useId();
  const set = (field: keyof FlightFormValues) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    // A corrected field loses its message; the others keep theirs until the next submit.
    setErrors((current) => {
      if (!(field in current)) return current;
      const { [field]: _removed, ...rest } = current;
      return rest;
    });
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = parseFlightForm(values, today);
    if (!parsed.success) {
      setErrors({ ...fieldErrors(parsed.error.issues), form: messages.completeAllFieldsCorrectly });
      // Take the user to the first field in error.
      requestAnimationFrame(() =>
        document
          .querySelector<HTMLElement>(`[id="${CSS.escape(formId)}"] [aria-invalid="true"]`)
          ?.focus(),
      );
      return;
    }
    setErrors({});
    onSubmit(parsed.data, values);
  };
  const formError =
    errors.form ??
    (serverError ? `${airlineLabels.serverRefused} ${serverError.message}` : undefined);
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
        onSubmit={submit}
        className="grid gap-4 sm:grid-cols-2"
        data-testid="flight-form"
      >
        <CountrySelect
          label={airlineLabels.origin}
          name="origin"
          value={values.origin}
          onChange={set('origin')}
          error={errors.origin}
        />
        <CountrySelect
          label={airlineLabels.destination}
          name="destination"
          value={values.destination}
          onChange={set('destination')}
          error={errors.destination}
        />
        <Field
          label={airlineLabels.departureDate}
          name="departureDate"
          type="date"
          min={today}
          value={values.departureDate}
          onChange={(event) => set('departureDate')(event.target.value)}
          error={errors.departureDate}
        />
        <Field
          label={airlineLabels.departureHour}
          name="departureHour"
          type="time"
          value={values.departureHour}
          onChange={(event) => set('departureHour')(event.target.value)}
          error={errors.departureHour}
        />
        <Field
          label={airlineLabels.arrivalDate}
          name="arrivalDate"
          type="date"
          min={values.departureDate || today}
          value={values.arrivalDate}
          onChange={(event) => set('arrivalDate')(event.target.value)}
          error={errors.arrivalDate}
        />
        <Field
          label={airlineLabels.arrivalHour}
          name="arrivalHour"
          type="time"
          value={values.arrivalHour}
          onChange={(event) => set('arrivalHour')(event.target.value)}
          error={errors.arrivalHour}
        />
        <div className="grid gap-4 sm:col-span-2 sm:grid-cols-3">
          <Field
            label={airlineLabels.duration}
            name="durationEstimated"
            type="text"
            inputMode="numeric"
            maxLength={5}
            placeholder={airlineLabels.durationHint}
            hint={airlineLabels.durationHint}
            value={values.durationEstimated}
            onChange={(event) => set('durationEstimated')(formatDurationInput(event.target.value))}
            error={errors.durationEstimated}
          />
          <Field
            label={airlineLabels.price}
            name="price"
            type="number"
            inputMode="decimal"
            min={1}
            step="0.01"
            value={values.price}
            onChange={(event) => set('price')(event.target.value)}
            error={errors.price}
          />
          <Field
            label={airlineLabels.stock}
            name="stock"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={values.stock}
            onChange={(event) => set('stock')(event.target.value)}
            error={errors.stock}
          />
        </div>
        <div className="flex flex-col gap-1 sm:col-span-2">
          <label htmlFor={`${formId}-description`} className="text-sm font-medium">
            {airlineLabels.description}
          </label>
          <textarea
            id={`${formId}-description`}
            name="description"
            className="textarea w-full"
            rows={2}
            maxLength={FLIGHT_DESCRIPTION_MAX_LENGTH}
            value={values.description}
            onChange={(event) => set('description')(event.target.value)}
          />
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
