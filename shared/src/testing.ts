import type { Flight } from './schemas/flight.ts';

/**
 * Test data for shared's own tests: only *.test.ts files import this module (index.ts does not
 * export it). Each test overrides the fields it is about, so a case reads as what it changes.
 */

/** A valid UUID ending in `n`, so that a test's ids read as 1, 2, 3. */
export function testId(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

/**
 * The route and times of the test flight, the fields a stored flight and the airline's flight
 * form have alike: Argentina to Chile on 2030-06-20, from 08:00 to 10:30.
 */
export const TEST_FLIGHT_SCHEDULE = {
  origin: 'Argentina',
  destination: 'Chile',
  departureDate: '2030-06-20',
  departureHour: '08:00',
  arrivalDate: '2030-06-20',
  arrivalHour: '10:30',
  durationEstimated: '02:30',
} as const;

/**
 * A valid flight with `overrides`: Test Air (airline `testId(2)`) on `TEST_FLIGHT_SCHEDULE`,
 * 199.99 a ticket, 5 tickets left.
 */
export function testFlight(overrides: Partial<Flight> = {}): Flight {
  return {
    id: testId(1),
    airlineId: testId(2),
    airlineName: 'Test Air',
    ...TEST_FLIGHT_SCHEDULE,
    priceCents: 19_999,
    tickets: 5,
    logo: '/logos/test.png',
    description: 'Direct',
    createdAt: 0,
    ...overrides,
  };
}
