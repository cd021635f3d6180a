import { expect, test } from 'vitest';
import { specLabels } from './labels.ts';
import { messages } from './messages.ts';

test('every label is a trimmed, non-empty string', () => {
  for (const label of Object.values(specLabels)) {
    expect(label.length).toBeGreaterThan(0);
    expect(label.trim()).toBe(label);
  }
});

test('the navigation and menu words are the spec words, spelling included', () => {
  expect(specLabels.favs).toBe('Favs');
  expect(specLabels.logIn).toBe('Log In');
  expect(specLabels.signIn).toBe('Sign In');
  expect(specLabels.airlinePendingRequests).toBe('AirlinePendingRequests');
  expect(specLabels.addYourAirline).toBe('Add your Airline');
});

test('the admin table columns keep the spec capitals', () => {
  expect(specLabels.uid).toBe('UID');
  expect(specLabels.deleteAirline).toBe('Delete Airline');
  expect(specLabels.acceptRequest).toBe('Accept Request');
  expect(specLabels.departureHour).toBe('Departure Hour');
  expect(specLabels.arrivalDate).toBe('Arrival Date');
});

test('no label key doubles a key of the message catalogue', () => {
  const messageKeys = new Set(Object.keys(messages));
  expect(Object.keys(specLabels).filter((key) => messageKeys.has(key))).toEqual([]);
});
