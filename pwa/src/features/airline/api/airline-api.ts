import { z } from 'zod';
import {
  FlightSchema,
  MessageResponseSchema,
  type Flight,
  type FlightForm,
  type RegisterAirlineInput,
} from '@skyport/shared';
import { apiRequest } from '../../../api/api-client.ts';

/**
 * The airline's online-only calls (docs/architecture.md §2.2): registration, and the §7 catalogue routes
 * `POST /flights/create {flight}`, `PUT /flights/update {flight}`, `POST /flights/delete {flightIds}`.
 * Reads come from the local database (the replicated flights and sales collections).
 */

/** `POST /auth/register/airline`: creates a pending airline account; answers "Registro exitoso!". */
export function registerAirline(
  input: RegisterAirlineInput,
): Promise<z.infer<typeof MessageResponseSchema>> {
  return apiRequest('/auth/register/airline', {
    method: 'POST',
    body: input,
    schema: MessageResponseSchema,
  });
}

const FlightAnswerSchema = z.object({ flight: FlightSchema }).transform((body) => body.flight);

/** The form's fields as the API takes them, without `id` (the logo is the airline's: not sent). */
function flightFields(form: FlightForm) {
  const { id: _id, logo: _logo, ...fields } = form;
  return fields;
}

export function createFlight(form: FlightForm): Promise<Flight> {
  return apiRequest('/flights/create', {
    method: 'POST',
    body: { flight: flightFields(form) },
    schema: FlightAnswerSchema,
  });
}

export function updateFlight(id: string, form: FlightForm): Promise<Flight> {
  return apiRequest('/flights/update', {
    method: 'PUT',
    body: { flight: { id, ...flightFields(form) } },
    schema: FlightAnswerSchema,
  });
}

const DeleteAnswerSchema = z
  .object({ deleted: z.array(z.string()) })
  .transform((body) => body.deleted);

export function deleteFlights(flightIds: readonly string[]): Promise<string[]> {
  return apiRequest('/flights/delete', {
    method: 'POST',
    body: { flightIds },
    schema: DeleteAnswerSchema,
  });
}
