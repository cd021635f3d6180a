import { expect, test } from 'vitest';
import { z } from 'zod';
import { TEST_FLIGHT_SCHEDULE, testFlight, testId } from '../testing.ts';
import {
  createFlightCreateBodySchema,
  createFlightFormSchema,
  createFlightUpdateBodySchema,
  FlightDeleteBodySchema,
  flightFieldsFromForm,
  flightFormFromFlight,
  flightFormPriceCents,
  FlightStockBodySchema,
} from './flight-form.ts';

const TODAY = '2030-06-15';
const ID = testId(1);
const ID2 = testId(2);
const schema = createFlightFormSchema({ today: TODAY });

/** A valid form: Argentina to Chile on 2030-06-20 from 08:00 to 10:30, 02:30 long. */
const valid = {
  ...TEST_FLIGHT_SCHEDULE,
  price: 199.99,
  stock: 120,
  logo: 'https://example.com/logo.png',
};

function errorsOf(input: unknown, s: z.ZodType = schema): Record<string, string[] | undefined> {
  const result = s.safeParse(input);
  return result.success ? {} : z.flattenError(result.error).fieldErrors;
}

// The §5 messages of the flight form, exactly as the spec writes them.
const COMPLETE = 'Complete all fields';
const CORRECTLY = 'Please complete all fields correctly';
const COUNTRY = 'Country not allowed';
const DATE = 'Date not allowed';
const DURATION = 'Indicate de duration estimated, please';

test('a complete flight form parses, with an empty description by default', () => {
  expect(schema.parse(valid)).toEqual({ ...valid, description: '' });
});

test('origin and destination are trimmed before they are checked', () => {
  const parsed = schema.parse({ ...valid, origin: ' Argentina ', destination: 'Chile  ' });
  expect(parsed.origin).toBe('Argentina');
  expect(parsed.destination).toBe('Chile');
});

/** Each case changes the valid form and lists every error the form then shows, per field. */
test.each([
  ['an empty origin', { origin: '' }, { origin: [COMPLETE] }],
  ['a missing destination', { destination: undefined }, { destination: [COMPLETE] }],
  ['a blank origin', { origin: '   ' }, { origin: [COMPLETE] }],
  ['a country not in the list', { origin: 'Atlantis' }, { origin: [COUNTRY] }],
  ['a country in the wrong case', { destination: 'chile' }, { destination: [COUNTRY] }],
  ['the origin as destination', { destination: 'Argentina' }, { destination: [COUNTRY] }],
  ['an arrival before the departure date', { arrivalDate: '2030-06-19' }, { arrivalDate: [DATE] }],
  ['a departure date in the past', { departureDate: '2030-06-14' }, { departureDate: [DATE] }],
  ['a malformed departure date', { departureDate: '20/06/2030' }, { departureDate: [DATE] }],
  ['an impossible arrival date', { arrivalDate: '2030-02-30' }, { arrivalDate: [DATE] }],
  ['an hour without two digits', { departureHour: '8:00' }, { departureHour: [CORRECTLY] }],
  ['hour 24', { arrivalHour: '24:00' }, { arrivalHour: [CORRECTLY] }],
  ['an empty hour', { arrivalHour: '' }, { arrivalHour: [COMPLETE] }],
  ['a missing price', { price: undefined }, { price: [COMPLETE] }],
  ['a stock that is not a number', { stock: Number.NaN }, { stock: [COMPLETE] }],
  ['a price as numeric text', { price: '199.99' }, { price: [COMPLETE] }],
  ['a stock as numeric text', { stock: '3' }, { stock: [COMPLETE] }],
  ['a price below 1', { price: 0.99 }, { price: [CORRECTLY] }],
  ['a stock of 0', { stock: 0 }, { stock: [CORRECTLY] }],
  ['a price of a fraction of a cent', { price: 0.001 }, { price: [CORRECTLY] }],
  ['a negative stock', { stock: -0.5 }, { stock: [CORRECTLY] }],
  ['a price with more than two decimals', { price: 10.005 }, { price: [CORRECTLY] }],
  ['a fractional stock', { stock: 2.5 }, { stock: [CORRECTLY] }],
])('%s is refused with its §5 message', (_case, change: Record<string, unknown>, errors) => {
  expect(errorsOf({ ...valid, ...change })).toEqual(errors);
});

test('both dates in the past are each not allowed, reported once per field', () => {
  expect(errorsOf({ ...valid, departureDate: '2020-01-02', arrivalDate: '2020-01-01' })).toEqual({
    departureDate: [DATE],
    arrivalDate: [DATE],
  });
});

test('cross-field errors show together with field errors', () => {
  const change = { destination: 'Argentina', price: 0, arrivalDate: '2030-06-01' };
  expect(errorsOf({ ...valid, ...change })).toEqual({
    destination: [COUNTRY],
    arrivalDate: [DATE],
    price: [CORRECTLY],
  });
});

test('cross-field errors show even when a required field is blank', () => {
  expect(errorsOf({ ...valid, destination: 'Argentina', departureHour: '  ' })).toEqual({
    destination: [COUNTRY],
    departureHour: [COMPLETE],
  });
});

test.each(['', '2:30', '02:3', '02:60', '00:00', '002:30', 'ab:cd', undefined])(
  'a duration of %j asks to indicate the duration',
  (durationEstimated) => {
    expect(errorsOf({ ...valid, durationEstimated })).toEqual({ durationEstimated: [DURATION] });
  },
);

test.each([
  ['arriving the day after departure', { arrivalDate: '2030-06-21' }],
  ['a flight departing today', { departureDate: TODAY, arrivalDate: TODAY }],
  [
    'an arrival hour before the departure hour on the same day (local times)',
    { departureHour: '23:00', arrivalHour: '01:00' },
  ],
  ['a price and a stock of 1', { price: 1, stock: 1 }],
  ['a price whose float sum has more than two decimals', { price: 0.1 + 0.2 + 1 }],
  ['a logo that is a site path', { logo: '/logos/ar.png' }],
  ['no logo', { logo: undefined }],
])('%s is allowed', (_case, change: Record<string, unknown>) => {
  expect(schema.safeParse({ ...valid, ...change }).success).toBe(true);
});

test.each([
  ['an absurdly high price', { price: 1e12 }],
  ['an absurdly high stock', { stock: 1e9 }],
  ['a javascript: logo', { logo: 'javascript:alert(1)' }],
  ['a protocol-relative logo', { logo: '//evil.example/x.png' }],
  ['a logo path that browsers read as another host', { logo: '/\\evil.example/x.png' }],
  ['a data: logo', { logo: 'data:image/png;base64,AAAA' }],
])('%s is refused', (_case, change: Record<string, unknown>) => {
  expect(schema.safeParse({ ...valid, ...change }).success).toBe(false);
});

test('"the past" follows the today given to the factory', () => {
  const later = createFlightFormSchema({ today: '2030-07-01' });
  expect(later.safeParse(valid).success).toBe(false);
  const earlier = createFlightFormSchema({ today: '2000-01-01' });
  expect(earlier.safeParse(valid).success).toBe(true);
});

test('the factory refuses a today that is not yyyy-mm-dd', () => {
  expect(() => createFlightFormSchema({ today: '15/06/2030' })).toThrow(RangeError);
  expect(() => createFlightCreateBodySchema({ today: '' })).toThrow(RangeError);
});

test('an empty form reports every required field at once', () => {
  const errors = errorsOf({});
  expect(Object.keys(errors).sort()).toEqual(
    [
      'arrivalDate',
      'arrivalHour',
      'departureDate',
      'departureHour',
      'destination',
      'durationEstimated',
      'origin',
      'price',
      'stock',
    ].sort(),
  );
});

test('the create body wraps the flight and drops any id sent', () => {
  const body = createFlightCreateBodySchema({ today: TODAY }).parse({
    flight: { ...valid, id: ID },
  });
  expect(body.flight).not.toHaveProperty('id');
  expect(body.flight.origin).toBe('Argentina');
});

test('the create body applies the same rules', () => {
  const s = createFlightCreateBodySchema({ today: TODAY });
  expect(errorsOf({ flight: { ...valid, destination: 'Argentina' } }, s)).toEqual({
    flight: ['Country not allowed'],
  });
  expect(s.safeParse({}).success).toBe(false);
});

test('the update body requires the flight id', () => {
  const s = createFlightUpdateBodySchema({ today: TODAY });
  expect(s.safeParse({ flight: valid }).success).toBe(false);
  expect(s.parse({ flight: { ...valid, id: ID } }).flight.id).toBe(ID);
});

test('deleting with nothing selected says "Choose a flight"', () => {
  for (const body of [{ flightIds: [] }, {}]) {
    const result = FlightDeleteBodySchema.safeParse(body);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.issues[0]?.message).toBe('Choose a flight');
  }
});

test('deleting collapses repeated flight ids', () => {
  expect(FlightDeleteBodySchema.parse({ flightIds: [ID, ID2, ID] })).toEqual({
    flightIds: [ID, ID2],
  });
});

test('deleting refuses ids that are not flight ids', () => {
  expect(FlightDeleteBodySchema.safeParse({ flightIds: ['1; DROP TABLE flights'] }).success).toBe(
    false,
  );
});

test('a stock change lists flights with whole amounts of at least 1, each once', () => {
  expect(FlightStockBodySchema.parse({ flightIdAmount: [{ id: ID, amount: 2 }] })).toEqual({
    flightIdAmount: [{ id: ID, amount: 2 }],
  });
  expect(FlightStockBodySchema.safeParse({ flightIdAmount: [] }).success).toBe(false);
  expect(FlightStockBodySchema.safeParse({ flightIdAmount: [{ id: ID, amount: 0 }] }).success).toBe(
    false,
  );
  expect(
    FlightStockBodySchema.safeParse({ flightIdAmount: [{ id: ID, amount: -3 }] }).success,
  ).toBe(false);
  expect(
    FlightStockBodySchema.safeParse({
      flightIdAmount: [
        { id: ID, amount: 1 },
        { id: ID, amount: 1 },
      ],
    }).success,
  ).toBe(false);
});

test('the form price converts to integer cents without float error', () => {
  expect(flightFormPriceCents({ price: 199.99 })).toBe(19_999);
  expect(flightFormPriceCents({ price: 0.1 + 0.2 + 1 })).toBe(130);
  expect(flightFormPriceCents({ price: 20000 })).toBe(2_000_000);
});

test('a parsed form maps to stored flight fields', () => {
  expect(flightFieldsFromForm(schema.parse({ ...valid, description: ' Direct ' }))).toEqual({
    ...TEST_FLIGHT_SCHEDULE,
    priceCents: 19_999,
    tickets: 120,
    description: 'Direct',
  });
});

test('a stored flight fills the edit form and parses back to the same price', () => {
  const flight = testFlight({ priceCents: 1_234_567, tickets: 7 });
  const form = schema.parse(flightFormFromFlight(flight));
  expect(form.price).toBe(12_345.67);
  expect(flightFieldsFromForm(form).priceCents).toBe(1_234_567);
  expect(form.stock).toBe(7);
});
