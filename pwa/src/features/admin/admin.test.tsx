import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import type { Airline, Flight } from '@skyport/shared';
import {
  AirlineTable,
  BUSINESS_PAGE_SIZE,
  groupByAirline,
} from './components/business-overview.tsx';
import { displayName } from './components/user-management.tsx';

function flight(id: string, airlineId: string, departureDate: string, tickets = 10): Flight {
  return {
    id,
    airlineId,
    airlineName: airlineId,
    origin: 'Chile',
    destination: 'Peru',
    departureDate,
    departureHour: '10:00',
    arrivalDate: departureDate,
    arrivalHour: '12:00',
    durationEstimated: '02:00',
    priceCents: 1000,
    tickets,
    logo: '',
    description: '',
    createdAt: 0,
  };
}

const airline = (id: string, name: string): Airline => ({ id, name, userId: null, image: '' });

test('a missing name shows "(empty)"', () => {
  expect(displayName({ name: null, lastName: null })).toBe('(empty)');
  expect(displayName({ name: '  ', lastName: null })).toBe('(empty)');
  expect(displayName({ name: 'Ana', lastName: 'Paz' })).toBe('Ana Paz');
});

test('the business overview lists every airline by name, with its flights by departure, sold out included', () => {
  const groups = groupByAirline({
    airlines: [airline('b', 'Zeta Air'), airline('a', 'Alpha Air'), airline('c', 'Empty Air')],
    flights: [
      flight('2', 'a', '2030-02-01', 0),
      flight('1', 'a', '2030-01-01'),
      flight('3', 'b', '2030-01-01'),
    ],
  });
  expect(groups.map((group) => group.airline.name)).toEqual(['Alpha Air', 'Empty Air', 'Zeta Air']);
  expect(groups[0]?.flights.map((f) => f.id)).toEqual(['1', '2']);
  expect(groups[0]?.flights[1]?.tickets).toBe(0);
  expect(groups[1]?.flights).toEqual([]);
});

test("an airline's table draws its first flights and offers the rest a page at a time", () => {
  const count = BUSINESS_PAGE_SIZE + 3;
  const flights = Array.from({ length: count }, (_, n) =>
    flight(String(n), 'a', `2030-01-${String(n + 1).padStart(2, '0')}`),
  );
  const html = renderToStaticMarkup(
    <AirlineTable airline={airline('a', 'Alpha Air')} flights={flights} />,
  );
  expect(html.match(/data-testid="business-row"/g)).toHaveLength(BUSINESS_PAGE_SIZE);
  expect(html).toContain(`Alpha Air: ${count} flights`);
  expect(html).toContain('data-testid="business-more"');
  expect(html).toContain('Show 3 more (3 not shown)');

  const all = renderToStaticMarkup(
    <AirlineTable airline={airline('a', 'Alpha Air')} flights={flights.slice(0, 2)} />,
  );
  expect(all).not.toContain('business-more');
});
