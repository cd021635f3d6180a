import { z } from 'zod';
import { UserSchema, type AirlineStatus, type User } from '@skyport/shared';
import { apiRequest } from '../../../api/api-client.ts';

/**
 * The super administrator's calls (spec §7), all online-only and all checked by the server:
 * `GET /user`, `PUT /user/update {email}`, `DELETE /user/delete/{email}`, `PUT /user/disableUser {uid}`,
 * `DELETE /airlines/delete/{id}`.
 */

const UsersSchema = z.array(UserSchema);

/** User management: customers other than the caller (administrators are never listed). */
export function listCustomers(signal?: AbortSignal): Promise<User[]> {
  return apiRequest('/user', { schema: UsersSchema, signal });
}

/** Airline accounts, pending (requests) or approved (airline management). */
export function listAirlineAccounts(status: AirlineStatus, signal?: AbortSignal): Promise<User[]> {
  return apiRequest(`/user?role=airline&airlineStatus=${status}`, { schema: UsersSchema, signal });
}

/** "Make Admin": approves a pending airline and creates its airline. */
export function approveAirline(email: string): Promise<User> {
  return apiRequest('/user/update', { method: 'PUT', body: { email }, schema: UserSchema });
}

export function deleteUser(email: string): Promise<void> {
  return apiRequest(`/user/delete/${encodeURIComponent(email)}`, { method: 'DELETE' });
}

/** Disables an account: its sessions end at once and it cannot log in. */
export function disableUser(uid: string): Promise<User> {
  return apiRequest('/user/disableUser', { method: 'PUT', body: { uid }, schema: UserSchema });
}

export function deleteAirline(airlineId: string): Promise<void> {
  return apiRequest(`/airlines/delete/${encodeURIComponent(airlineId)}`, { method: 'DELETE' });
}
