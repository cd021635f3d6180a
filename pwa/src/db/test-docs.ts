import { randomUUID } from 'node:crypto';
import {
  cartLineFromFlight,
  favouriteFromFlight,
  type CartDoc,
  type FavouriteDoc,
  type Flight,
  type FlightDoc,
} from '@skyport/shared';

/** A valid flight document for the local database's tests; `fields` override. */
export function flightDoc(fields: Partial<FlightDoc> = {}): FlightDoc {
  return {
    id: randomUUID(),
    airlineId: randomUUID(),
    airlineName: 'Test Air',
    origin: 'Argentina',
    destination: 'Chile',
    departureDate: '2030-01-01',
    departureHour: '08:30',
    arrivalDate: '2030-01-01',
    arrivalHour: '10:45',
    durationEstimated: '02:15',
    priceCents: 15000,
    tickets: 10,
    logo: '',
    description: 'A flight',
    createdAt: 1_700_000_000_000,
    ...fields,
  };
}

/** `userId`'s cart line of `flight` as the cart collection stores it (its id is the flight's). */
export function cartDoc(flight: Flight, userId: string, amount: number): CartDoc {
  return { ...cartLineFromFlight(flight), id: flight.id, userId, amount };
}

/** `userId`'s favourite of `flight` as the favourites collection stores it. */
export function favouriteDoc(flight: Flight, userId: string): FavouriteDoc {
  return { ...favouriteFromFlight(flight, Date.now()), id: flight.id, userId };
}
