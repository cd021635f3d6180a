import { expect, test } from 'vitest';
import { FLIGHT_MODAL_WIDTH, COUNTRIES, type Flight } from '@skyport/shared';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import {
  applyOverlays,
  overlayOf,
  OWN_FLIGHT_CHANGES,
  pruneChanges,
  type ChangeState,
} from './data/own-flights.ts';
import { searchCountries } from './components/country-select.tsx';
import {
  EMPTY_FLIGHT_FORM,
  FLIGHT_MODAL_BOX_CLASS,
  localToday,
  parseFlightForm,
  type FlightFormValues,
} from './components/flight-form-modal.tsx';

const today = '2030-06-15';
const valid: FlightFormValues = {
  origin: 'Argentina',
  destination: 'Japan',
  departureDate: '2030-06-20',
  departureHour: '08:30',
  arrivalDate: '2030-06-21',
  arrivalHour: '06:10',
  durationEstimated: '22:40',
  price: '1234.5',
  stock: '120',
  description: '',
};

function errorsOf(values: FlightFormValues): Record<string, string> {
  const result = parseFlightForm(values, today);
  if (result.success) return {};
  return Object.fromEntries(
    result.error.issues.map((issue) => [String(issue.path[0]), issue.message]),
  );
}

test('the flight modal box is FLIGHT_MODAL_WIDTH wide', () => {
  expect(FLIGHT_MODAL_BOX_CLASS).toContain(`max-w-[${FLIGHT_MODAL_WIDTH}px]`);
});

test('a complete flight form parses, price and stock as numbers', () => {
  const result = parseFlightForm(valid, today);
  expect(result.success).toBe(true);
  expect(result.data).toMatchObject({ price: 1234.5, stock: 120, origin: 'Argentina' });
});

test('an empty flight form shows "Complete all fields" and the duration message', () => {
  const errors = errorsOf(EMPTY_FLIGHT_FORM);
  expect(errors.origin).toBe('Complete all fields');
  expect(errors.price).toBe('Complete all fields');
  expect(errors.stock).toBe('Complete all fields');
  expect(errors.durationEstimated).toBe('Indicate de duration estimated, please');
});

test('the same origin and destination, past or reversed dates and a zero price are refused', () => {
  const errors = errorsOf({
    ...valid,
    destination: 'Argentina',
    departureDate: '2030-06-14',
    arrivalDate: '2030-06-10',
    price: '0',
  });
  expect(errors.destination).toBe('Country not allowed');
  expect(errors.departureDate).toBe('Date not allowed');
  expect(errors.arrivalDate).toBe('Date not allowed');
  expect(errors.price).toBe('Please complete all fields correctly');
});

test('a typed decimal comma counts as a decimal point', () => {
  expect(parseFlightForm({ ...valid, price: '99,90' }, today).data?.price).toBe(99.9);
});

test('country search puts names starting with the text first and ignores accents', () => {
  expect(searchCountries('').length).toBe(COUNTRIES.length);
  const results = searchCountries('ar').map((country) => country.name);
  expect(results[0]).toBe('Argentina');
  expect(results).toContain('Bulgaria');
  expect(results.indexOf('Argentina')).toBeLessThan(results.indexOf('Bulgaria'));
  expect(searchCountries('cote').map((country) => country.name)).toContain("Côte d'Ivoire");
  expect(searchCountries('zzz')).toEqual([]);
});

test("today's date is the device's calendar date", () => {
  expect(localToday(new Date(2031, 0, 5, 23, 59))).toBe('2031-01-05');
});

function flight(id: string, priceCents = 1000): Flight {
  return {
    id,
    airlineId: 'a',
    airlineName: 'Alpha Air',
    origin: 'Chile',
    destination: 'Peru',
    departureDate: '2030-07-01',
    departureHour: '10:00',
    arrivalDate: '2030-07-01',
    arrivalHour: '12:00',
    durationEstimated: '02:00',
    priceCents,
    tickets: 5,
    logo: '',
    description: '',
    createdAt: 0,
  };
}

test('pending changes show on top of the local flights, marked until the server answers', () => {
  const rows = applyOverlays(
    [flight('1'), flight('2'), flight('3')],
    [
      { op: 1, kind: 'create', flight: flight('pending-1') },
      { op: 2, kind: 'update', flight: flight('1', 5000) },
      { op: 3, kind: 'delete', ids: new Set(['2']) },
      { op: 4, kind: 'gone', ids: new Set(['3']), until: Infinity },
    ],
  );
  expect(rows.map((row) => [row.flight.id, row.flight.priceCents, row.pending])).toEqual([
    ['1', 5000, 'update'],
    ['2', 1000, 'delete'],
    ['pending-1', 1000, 'create'],
  ]);
});

test("the server's stored flight replaces the local copy until replication brings it", () => {
  const rows = applyOverlays(
    [flight('1')],
    [
      { op: 1, kind: 'saved', flight: flight('1', 7000), until: Infinity },
      { op: 2, kind: 'saved', flight: flight('9'), until: Infinity },
    ],
  );
  expect(rows.map((row) => [row.flight.id, row.flight.priceCents, row.pending])).toEqual([
    ['1', 7000, null],
    ['9', 1000, null],
  ]);
});

/** A catalogue change in a real mutation cache, answered (or refused) when the test says. */
function changeIn(client: QueryClient, variables: unknown) {
  let settle!: { answer: (value: unknown) => void; refuse: (error: Error) => void };
  const observer = new MutationObserver<unknown, Error, unknown>(client, {
    mutationKey: OWN_FLIGHT_CHANGES,
    mutationFn: () =>
      new Promise((answer, refuse) => {
        settle = { answer, refuse };
      }),
  });
  const done = observer.mutate(variables).catch(() => undefined);
  const mutation = () => client.getMutationCache().findAll({ mutationKey: OWN_FLIGHT_CHANGES })[0]!;
  const overlay = () => overlayOf(mutation().mutationId, mutation().state as ChangeState);
  return { settle: () => settle, done, mutation, overlay };
}

const form = parseFlightForm(valid, today).data!;

test('a new flight shows as sent while the server decides, then as stored until the replica has it', async () => {
  const client = new QueryClient();
  const cache = client.getMutationCache();
  const change = changeIn(client, { kind: 'save', form, airlineId: 'a1', previous: null });
  await Promise.resolve();
  const pending = change.overlay();
  expect(pending).toMatchObject({ kind: 'create', flight: { airlineId: 'a1' } });
  expect(pending?.kind === 'create' && pending.flight.id).toBe(`pending-${pending?.op}`);
  const stored = flight('f1', 4200);
  change.settle().answer({ kind: 'saved', flight: stored, until: 1000 });
  await change.done;
  expect(change.overlay()).toEqual({
    op: change.mutation().mutationId,
    kind: 'saved',
    flight: stored,
    until: 1000,
  });
  // The replica has not caught up: kept; it has: dropped.
  pruneChanges(cache, [flight('f1', 1)], 500);
  expect(cache.getAll()).toHaveLength(1);
  pruneChanges(cache, [stored], 500);
  expect(cache.getAll()).toHaveLength(0);
});

test('an answered change that waited too long, and a refused one, leave the mutation cache', async () => {
  const client = new QueryClient();
  const cache = client.getMutationCache();
  const deletion = changeIn(client, { kind: 'delete', ids: ['f1', 'f2'] });
  await Promise.resolve();
  expect(deletion.overlay()).toMatchObject({ kind: 'delete', ids: ['f1', 'f2'] });
  deletion.settle().answer({ kind: 'gone', ids: ['f1'], until: 1000 });
  await deletion.done;
  expect(deletion.overlay()).toMatchObject({ kind: 'gone', ids: ['f1'] });
  pruneChanges(cache, null, 999);
  expect(cache.getAll()).toHaveLength(1);
  pruneChanges(cache, null, 1000);
  expect(cache.getAll()).toHaveLength(0);

  const refused = changeIn(client, { kind: 'save', form, airlineId: 'a1', previous: flight('f3') });
  await Promise.resolve();
  expect(refused.overlay()).toMatchObject({ kind: 'update', flight: { id: 'f3' } });
  refused.settle().refuse(new Error('refused'));
  await refused.done;
  expect(refused.overlay()).toBeNull();
  pruneChanges(cache, null, 0);
  expect(cache.getAll()).toHaveLength(0);
});
