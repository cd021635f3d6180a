import { z } from 'zod';
import { text } from './text.ts';
import { PRICE_MIN, STOCK_MIN } from '../constants.ts';
import { isCountryName } from '../countries.ts';
import { messages } from '../messages.ts';
import { isValidDuration } from '../rules/duration.ts';
import { hasAtMostTwoDecimals, toCents } from '../rules/pricing.ts';
import { CART_MAX_LINES, CartAmountSchema } from './cart.ts';
import { DateStringSchema, IdSchema } from './common.ts';
import type { Flight } from './flight.ts';

/**
 * An airline's flight form (spec §3 "Flight form payload", §5 "Flight form") and the §7 flight
 * bodies: `POST /flights/create` {flight}, `PUT /flights/update` {flight},
 * `POST /flights/delete` {flightIds[]}, `PUT /flights/stock` {flightIdAmount:[{id, amount}]}.
 *
 * The form's `price` is in currency units with at most 2 decimals, as typed; `flightFieldsFromForm`
 * turns it into the stored `priceCents`. "Dates not in the past" needs today's date, and `shared`
 * cannot read a clock, so the form schemas are made by factories that take `today`.
 *
 * Messages: an empty required field → "Complete all fields"; a country missing from the list or
 * equal to the other one → "Country not allowed"; a past date, or an arrival before the
 * departure → "Date not allowed"; a duration that is not hh:mm → "Indicate de duration
 * estimated, please"; a malformed hour, price or stock → "Please complete all fields correctly".
 */

/** Highest price, in currency units. Not in the spec: keeps totals far from overflow. */
export const FLIGHT_PRICE_MAX = 10_000_000;
/** Highest stock of one flight. Not in the spec: a sanity bound. */
export const FLIGHT_STOCK_MAX = 100_000;
/** Longest flight description. Not in the spec: a bound so a body stays small. */
export const FLIGHT_DESCRIPTION_MAX_LENGTH = 2000;
/** Longest logo address. */
export const FLIGHT_LOGO_MAX_LENGTH = 2048;
/** Most flights deleted in one request. Not in the spec: a catalogue page holds 5. */
export const FLIGHT_DELETE_MAX = 1000;

/** Options of the flight form factories. */
export interface FlightFormOptions {
  /** Today's date, yyyy-mm-dd, in the zone the caller judges "the past" by. */
  readonly today: string;
}

const HOUR_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * A required text field with one rule: a missing or blank value gets "Complete all fields",
 * otherwise `rule` names the message of a bad value (or null). One check, so a field shows one
 * message. (No `abort`: an explicitly aborting issue would also stop the cross-field rules.)
 */
function requiredText(rule: (value: string) => string | null) {
  return text({ error: messages.completeAllFields })
    .trim()
    .superRefine((value, ctx) => {
      const message = value === '' ? messages.completeAllFields : rule(value);
      if (message !== null) ctx.addIssue({ code: 'custom', message });
    });
}

const CountryFieldSchema = requiredText((value) =>
  isCountryName(value) ? null : messages.countryNotAllowed,
);

const DateFieldSchema = requiredText((value) =>
  DateStringSchema.safeParse(value).success ? null : messages.dateNotAllowed,
);

const HourFieldSchema = requiredText((value) =>
  HOUR_PATTERN.test(value) ? null : messages.completeAllFieldsCorrectly,
);

const DurationFieldSchema = text({ error: messages.durationRequired }).refine(
  isValidDuration,
  messages.durationRequired,
);

/** Price in currency units: a number from 1, with at most 2 decimals. */
const PriceFieldSchema = z
  .number({ error: messages.completeAllFields })
  .refine(
    (price) => price >= PRICE_MIN && price <= FLIGHT_PRICE_MAX && hasAtMostTwoDecimals(price),
    messages.completeAllFieldsCorrectly,
  );

/** Stock: a whole number from 1. */
const StockFieldSchema = z
  .number({ error: messages.completeAllFields })
  .refine(
    (stock) => Number.isInteger(stock) && stock >= STOCK_MIN && stock <= FLIGHT_STOCK_MAX,
    messages.completeAllFieldsCorrectly,
  );

/**
 * Logo: the airline's image, an http(s) address or a path on this site. Optional: the server sets
 * it from the airline's own image and ignores what the client sent.
 */
const LogoFieldSchema = text()
  .trim()
  .max(FLIGHT_LOGO_MAX_LENGTH)
  // Security: refuse javascript:, data: and other schemes that would end up in an <img src>.
  // A site path may not start with // or /\ (browsers read both as another host).
  .regex(/^(https?:\/\/|\/(?![/\\]))/i, 'Use an http(s) address or a site path')
  .optional();

/** The form's fields, without `id`. */
const flightFieldsShape = {
  origin: CountryFieldSchema,
  destination: CountryFieldSchema,
  departureDate: DateFieldSchema,
  departureHour: HourFieldSchema,
  arrivalDate: DateFieldSchema,
  arrivalHour: HourFieldSchema,
  durationEstimated: DurationFieldSchema,
  price: PriceFieldSchema,
  stock: StockFieldSchema,
  logo: LogoFieldSchema,
  description: text().trim().max(FLIGHT_DESCRIPTION_MAX_LENGTH).default(''),
};

function assertToday(today: string): void {
  if (!DateStringSchema.safeParse(today).success) {
    throw new RangeError(`today must be a yyyy-mm-dd date, got ${today}`);
  }
}

/** Reads a string field of a possibly half-parsed value. */
function textOf(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field: unknown = Reflect.get(value, key);
  return typeof field === 'string' ? field : undefined;
}

/** Whether a date field holds a real yyyy-mm-dd date (its own rule; judged once, here skipped). */
function isDate(value: string | undefined): value is string {
  return value !== undefined && DateStringSchema.safeParse(value).success;
}

/**
 * The cross-field rules: destination differs from origin, neither date is before `today`, and
 * the arrival date is not before the departure date. Runs even when other fields failed, so the
 * form shows every error at once; a field with its own error is not judged again here.
 */
function addCrossFieldIssues(value: unknown, ctx: z.RefinementCtx, today: string): void {
  const origin = textOf(value, 'origin')?.trim();
  const destination = textOf(value, 'destination')?.trim();
  if (origin !== undefined && isCountryName(origin) && origin === destination) {
    ctx.addIssue({ code: 'custom', path: ['destination'], message: messages.countryNotAllowed });
  }
  const departure = textOf(value, 'departureDate')?.trim();
  const arrival = textOf(value, 'arrivalDate')?.trim();
  // yyyy-mm-dd strings compare in calendar order.
  const departureOk = isDate(departure);
  if (departureOk && departure < today) {
    ctx.addIssue({ code: 'custom', path: ['departureDate'], message: messages.dateNotAllowed });
  }
  if (isDate(arrival) && (arrival < today || (departureOk && arrival < departure))) {
    ctx.addIssue({ code: 'custom', path: ['arrivalDate'], message: messages.dateNotAllowed });
  }
}

const always = () => true;

/**
 * The flight form (spec §5) for dates judged against `today`: origin, destination, dates, hours,
 * duration, price and stock required; `id` present when editing.
 * The arrival hour is not compared with the departure hour: hours are local to each airport.
 * @throws RangeError if `today` is not a yyyy-mm-dd date.
 */
export function createFlightFormSchema(options: FlightFormOptions) {
  assertToday(options.today);
  return z
    .object({ id: IdSchema.optional(), ...flightFieldsShape })
    .superRefine((value, ctx) => addCrossFieldIssues(value, ctx, options.today), { when: always });
}
export type FlightForm = z.infer<ReturnType<typeof createFlightFormSchema>>;
/** The form's raw values before parsing. */
export type FlightFormInput = z.input<ReturnType<typeof createFlightFormSchema>>;

/** A new flight's fields (no `id`: the server assigns it; an `id` sent is dropped). */
function createNewFlightSchema(options: FlightFormOptions) {
  assertToday(options.today);
  return z
    .object(flightFieldsShape)
    .superRefine((value, ctx) => addCrossFieldIssues(value, ctx, options.today), { when: always });
}

/** An edited flight's fields: `id` is required. */
function createEditedFlightSchema(options: FlightFormOptions) {
  assertToday(options.today);
  return z
    .object({ id: IdSchema, ...flightFieldsShape })
    .superRefine((value, ctx) => addCrossFieldIssues(value, ctx, options.today), { when: always });
}

/** §7 `POST /flights/create` {flight}. @throws RangeError if `today` is not yyyy-mm-dd. */
export function createFlightCreateBodySchema(options: FlightFormOptions) {
  return z.object({ flight: createNewFlightSchema(options) });
}

/** §7 `PUT /flights/update` {flight} with the flight's `id`. @throws RangeError if `today` is not yyyy-mm-dd. */
export function createFlightUpdateBodySchema(options: FlightFormOptions) {
  return z.object({ flight: createEditedFlightSchema(options) });
}

/**
 * §7 `POST /flights/delete` {flightIds[]}: nothing selected → "Choose a flight". Repeated ids are
 * collapsed.
 */
export const FlightDeleteBodySchema = z.object({
  flightIds: z
    .array(IdSchema, { error: messages.chooseAFlight })
    .min(1, messages.chooseAFlight)
    .max(FLIGHT_DELETE_MAX)
    .transform((ids) => [...new Set(ids)]),
});

/** One entry of `PUT /flights/stock`: tickets of flight `id` to take from its stock. */
export const FlightStockChangeSchema = z.object({
  id: IdSchema,
  amount: CartAmountSchema,
});

/** §7 `PUT /flights/stock` {flightIdAmount:[{id, amount}]}: at least one flight, each once. */
export const FlightStockBodySchema = z.object({
  flightIdAmount: z
    .array(FlightStockChangeSchema)
    .min(1)
    .max(CART_MAX_LINES)
    .refine((items) => new Set(items.map((item) => item.id)).size === items.length, {
      message: 'Each flight may appear only once',
    }),
});

/** The form's price (currency units, ≤ 2 decimals) in integer cents: 199.99 → 19999. */
export function flightFormPriceCents(form: { readonly price: number }): number {
  return toCents(form.price);
}

/** The stored flight fields a parsed form sets (everything but ids, airline and timestamps). */
export type FlightFieldsFromForm = Pick<
  Flight,
  | 'origin'
  | 'destination'
  | 'departureDate'
  | 'departureHour'
  | 'arrivalDate'
  | 'arrivalHour'
  | 'durationEstimated'
  | 'priceCents'
  | 'tickets'
  | 'description'
>;

/** Maps a parsed form to stored flight fields: `price` → `priceCents`, `stock` → `tickets`. */
export function flightFieldsFromForm(form: Omit<FlightForm, 'id' | 'logo'>): FlightFieldsFromForm {
  return {
    origin: form.origin,
    destination: form.destination,
    departureDate: form.departureDate,
    departureHour: form.departureHour,
    arrivalDate: form.arrivalDate,
    arrivalHour: form.arrivalHour,
    durationEstimated: form.durationEstimated,
    priceCents: flightFormPriceCents(form),
    tickets: form.stock,
    description: form.description,
  };
}

/** The edit modal's starting values for a stored flight: `priceCents` → `price` in units. */
export function flightFormFromFlight(flight: Flight): FlightFormInput {
  return {
    id: flight.id,
    origin: flight.origin,
    destination: flight.destination,
    departureDate: flight.departureDate,
    departureHour: flight.departureHour,
    arrivalDate: flight.arrivalDate,
    arrivalHour: flight.arrivalHour,
    durationEstimated: flight.durationEstimated,
    price: flight.priceCents / 100,
    stock: flight.tickets,
    logo: flight.logo,
    description: flight.description,
  };
}
