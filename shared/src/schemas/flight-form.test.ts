import { expect, test } from 'vitest';
import { z } from 'zod';
import type { Flight } from './flight.ts';
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
const ID = '00000000-0000-4000-8000-000000000001';
const ID2 = '00000000-0000-4000-8000-000000000002';
const schema = createFlightFormSchema({ today: TODAY });

const valid = {
  origin: 'Argentina',
  destination: 'Chile',
  departureDate: '2030-06-20',
  departureHour: '08:00',
  arrivalDate: '2030-06-20',
  arrivalHour: '10:30',
  durationEstimated: '02:30',
  price: 199.99,
  stock: 120,
  logo: 'https://example.com/logo.png',
};

function errorsOf(input: unknown, s: z.ZodType = schema): Record<string, string[] | undefined> {
  const result = s.safeParse(input);
  return result.success ? {} : z.flattenError(result.error).fieldErrors;
}

test('a complete flight form parses, with an empty description by default', () => {
  expect(schema.parse(valid)).toEqual({ ...valid, description: '' });
});

test('origin and destination are trimmed before they are checked', () => {
  const parsed = schema.parse({ ...valid, origin: ' Argentina ', destination: 'Chile  ' });
  expect(parsed.origin).toBe('Argentina');
  expect(parsed.destination).toBe('Chile');
});

test('a missing or blank origin or destination asks to complete all fields', () => {
  expect(errorsOf({ ...valid, origin: '' }).origin).toEqual(['Complete all fields']);
  expect(errorsOf({ ...valid, destination: undefined }).destination).toEqual([
    'Complete all fields',
  ]);
  expect(errorsOf({ ...valid, origin: '   ' }).origin).toEqual(['Complete all fields']);
});

test('a country that is not in the list is not allowed', () => {
  expect(errorsOf({ ...valid, origin: 'Atlantis' }).origin).toEqual(['Country not allowed']);
  expect(errorsOf({ ...valid, destination: 'chile' }).destination).toEqual(['Country not allowed']);
});

test('the same country as origin and destination is not allowed', () => {
  expect(errorsOf({ ...valid, destination: 'Argentina' })).toEqual({
    destination: ['Country not allowed'],
  });
});

test('an arrival date before the departure date is not allowed', () => {
  expect(errorsOf({ ...valid, arrivalDate: '2030-06-19' })).toEqual({
    arrivalDate: ['Date not allowed'],
  });
});

test('arriving on the departure day or later is allowed', () => {
  expect(schema.safeParse({ ...valid, arrivalDate: '2030-06-21' }).success).toBe(true);
});

test('a departure date in the past is not allowed', () => {
  expect(errorsOf({ ...valid, departureDate: '2030-06-14' }).departureDate).toEqual([
    'Date not allowed',
  ]);
});

test('a flight departing today is allowed', () => {
  const today = { ...valid, departureDate: TODAY, arrivalDate: TODAY };
  expect(schema.safeParse(today).success).toBe(true);
});

test('both dates in the past are each not allowed, reported once per field', () => {
  const errors = errorsOf({ ...valid, departureDate: '2020-01-02', arrivalDate: '2020-01-01' });
  expect(errors).toEqual({
    departureDate: ['Date not allowed'],
    arrivalDate: ['Date not allowed'],
  });
});

test('"the past" follows the today given to the factory', () => {
  const later = createFlightFormSchema({ today: '2030-07-01' });
  expect(later.safeParse(valid).success).toBe(false);
  const earlier = createFlightFormSchema({ today: '2000-01-01' });
  expect(earlier.safeParse(valid).success).toBe(true);
});

test('a malformed or impossible date is not allowed', () => {
  expect(errorsOf({ ...valid, departureDate: '20/06/2030' }).departureDate).toEqual([
    'Date not allowed',
  ]);
  expect(errorsOf({ ...valid, arrivalDate: '2030-02-30' }).arrivalDate).toEqual([
    'Date not allowed',
  ]);
});

test('the factory refuses a today that is not yyyy-mm-dd', () => {
  expect(() => createFlightFormSchema({ today: '15/06/2030' })).toThrow(RangeError);
  expect(() => createFlightCreateBodySchema({ today: '' })).toThrow(RangeError);
});

test('hours must be hh:mm in 24 hours', () => {
  expect(errorsOf({ ...valid, departureHour: '8:00' }).departureHour).toEqual([
    'Please complete all fields correctly',
  ]);
  expect(errorsOf({ ...valid, arrivalHour: '24:00' }).arrivalHour).toEqual([
    'Please complete all fields correctly',
  ]);
  expect(errorsOf({ ...valid, arrivalHour: '' }).arrivalHour).toEqual(['Complete all fields']);
});

test('an arrival hour before the departure hour on the same day is allowed (local times)', () => {
  expect(schema.safeParse({ ...valid, departureHour: '23:00', arrivalHour: '01:00' }).success).toBe(
    true,
  );
});

test('a duration that is not hh:mm asks to indicate the duration', () => {
  for (const durationEstimated of [
    '',
    '2:30',
    '02:3',
    '02:60',
    '00:00',
    '002:30',
    'ab:cd',
    undefined,
  ]) {
    expect(errorsOf({ ...valid, durationEstimated }).durationEstimated).toEqual([
      'Indicate de duration estimated, please',
    ]);
  }
});

test('a missing price or stock asks to complete all fields', () => {
  expect(errorsOf({ ...valid, price: undefined }).price).toEqual(['Complete all fields']);
  expect(errorsOf({ ...valid, stock: Number.NaN }).stock).toEqual(['Complete all fields']);
});

test('price and stock must be numbers, not numeric text', () => {
  expect(errorsOf({ ...valid, price: '199.99' }).price).toEqual(['Complete all fields']);
  expect(errorsOf({ ...valid, stock: '3' }).stock).toEqual(['Complete all fields']);
});

test('price and stock start at 1', () => {
  expect(errorsOf({ ...valid, price: 0.99 }).price).toEqual([
    'Please complete all fields correctly',
  ]);
  expect(errorsOf({ ...valid, stock: 0 }).stock).toEqual(['Please complete all fields correctly']);
  expect(errorsOf({ ...valid, price: 0.001 }).price).toEqual([
    'Please complete all fields correctly',
  ]);
  expect(errorsOf({ ...valid, stock: -0.5 }).stock).toEqual([
    'Please complete all fields correctly',
  ]);
  expect(schema.safeParse({ ...valid, price: 1, stock: 1 }).success).toBe(true);
});

test('a price with more than two decimals is refused', () => {
  expect(errorsOf({ ...valid, price: 10.005 }).price).toEqual([
    'Please complete all fields correctly',
  ]);
  expect(schema.safeParse({ ...valid, price: 0.1 + 0.2 + 1 }).success).toBe(true);
});

test('a fractional stock is refused', () => {
  expect(errorsOf({ ...valid, stock: 2.5 }).stock).toEqual([
    'Please complete all fields correctly',
  ]);
});

test('absurdly high price and stock are refused', () => {
  expect(schema.safeParse({ ...valid, price: 1e12 }).success).toBe(false);
  expect(schema.safeParse({ ...valid, stock: 1e9 }).success).toBe(false);
});

test('a logo must be a web address or a site path', () => {
  expect(schema.safeParse({ ...valid, logo: '/logos/ar.png' }).success).toBe(true);
  expect(schema.safeParse({ ...valid, logo: undefined }).success).toBe(true);
  expect(schema.safeParse({ ...valid, logo: 'javascript:alert(1)' }).success).toBe(false);
  expect(schema.safeParse({ ...valid, logo: '//evil.example/x.png' }).success).toBe(false);
  expect(schema.safeParse({ ...valid, logo: '/\\evil.example/x.png' }).success).toBe(false);
  expect(schema.safeParse({ ...valid, logo: 'data:image/png;base64,AAAA' }).success).toBe(false);
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

test('cross-field errors show together with field errors', () => {
  const errors = errorsOf({
    ...valid,
    destination: 'Argentina',
    price: 0,
    arrivalDate: '2030-06-01',
  });
  expect(errors.destination).toEqual(['Country not allowed']);
  expect(errors.arrivalDate).toEqual(['Date not allowed']);
  expect(errors.price).toEqual(['Please complete all fields correctly']);
});

test('cross-field errors show even when a required field is blank', () => {
  const errors = errorsOf({ ...valid, destination: 'Argentina', departureHour: '  ' });
  expect(errors).toEqual({
    destination: ['Country not allowed'],
    departureHour: ['Complete all fields'],
  });
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
    origin: 'Argentina',
    destination: 'Chile',
    departureDate: '2030-06-20',
    departureHour: '08:00',
    arrivalDate: '2030-06-20',
    arrivalHour: '10:30',
    durationEstimated: '02:30',
    priceCents: 19_999,
    tickets: 120,
    description: 'Direct',
  });
});

test('a stored flight fills the edit form and parses back to the same price', () => {
  const flight: Flight = {
    id: ID,
    airlineId: ID2,
    airlineName: 'Test Air',
    origin: 'Argentina',
    destination: 'Chile',
    departureDate: '2030-06-20',
    departureHour: '08:00',
    arrivalDate: '2030-06-20',
    arrivalHour: '10:30',
    durationEstimated: '02:30',
    priceCents: 1_234_567,
    tickets: 7,
    logo: '/logos/test.png',
    description: 'Nice',
    createdAt: 0,
  };
  const form = schema.parse(flightFormFromFlight(flight));
  expect(form.price).toBe(12_345.67);
  expect(flightFieldsFromForm(form).priceCents).toBe(1_234_567);
  expect(form.stock).toBe(7);
});
