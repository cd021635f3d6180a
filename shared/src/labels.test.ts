import { expect, test } from 'vitest';
import { specLabels } from './labels.ts';
import { messages } from './messages.ts';

test('every label is a trimmed, non-empty string', () => {
  for (const label of Object.values(specLabels)) {
    expect(label.length).toBeGreaterThan(0);
    expect(label.trim()).toBe(label);
  }
});

test('the navigation, menu and admin table words are the spec words, spelling and capitals kept', () => {
  expect(specLabels).toMatchObject({
    favs: 'Favs',
    logIn: 'Log In',
    signIn: 'Sign In',
    airlinePendingRequests: 'AirlinePendingRequests',
    addYourAirline: 'Add your Airline',
    uid: 'UID',
    deleteAirline: 'Delete Airline',
    acceptRequest: 'Accept Request',
    departureHour: 'Departure Hour',
    arrivalDate: 'Arrival Date',
  });
});

test('no label key doubles a key of the message catalogue', () => {
  const messageKeys = new Set(Object.keys(messages));
  expect(Object.keys(specLabels).filter((key) => messageKeys.has(key))).toEqual([]);
});
