import { expect, test } from 'vitest';
import { durationToMinutes, formatDurationInput, isValidDuration } from './duration.ts';

test.each([
  ['', ''],
  ['1', '1'],
  ['12', '12'],
  ['123', '12:3'],
  ['1234', '12:34'],
  ['12345', '12:34'],
  ['123456789', '12:34'],
  ['12:', '12'],
  ['12:3', '12:3'],
  ['12:34', '12:34'],
  ['12:345', '12:34'],
  ['1:30', '13:0'],
  ['0230', '02:30'],
  ['a', ''],
  ['1a2b', '12'],
  ['ab:cd', ''],
  [':::', ''],
  ['  0 2 3 0 ', '02:30'],
  ['-12.5', '12:5'],
  ['١٢٣٤', ''],
])('the duration field turns %j into %j', (raw, expected) => {
  expect(formatDurationInput(raw)).toBe(expected);
});

test('a formatted duration is never longer than 5 characters', () => {
  for (const raw of ['9999999', '99:99:99', '1'.repeat(50)]) {
    expect(formatDurationInput(raw).length).toBeLessThanOrEqual(5);
  }
});

test('formatting an already formatted duration changes nothing', () => {
  for (const raw of ['', '1', '12', '123', '1234', '12:3', 'x9y8z7w6v5']) {
    const once = formatDurationInput(raw);
    expect(formatDurationInput(once)).toBe(once);
  }
});

test('backspacing over the colon leaves the two hour digits', () => {
  expect(formatDurationInput('12:3'.slice(0, -1))).toBe('12');
});

test.each(['00:01', '01:30', '02:30', '12:00', '99:59'])('%s is a valid duration', (value) => {
  expect(isValidDuration(value)).toBe(true);
});

test.each([
  '',
  '2',
  '2:30',
  '02:3',
  '02:60',
  '00:00',
  '0230',
  '02-30',
  ' 02:30',
  '02:30 ',
  '102:30',
  'ab:cd',
])('%j is not a valid duration', (value) => {
  expect(isValidDuration(value)).toBe(false);
});

test('a duration converts to minutes', () => {
  expect(durationToMinutes('01:30')).toBe(90);
  expect(durationToMinutes('00:00')).toBe(0);
  expect(durationToMinutes('99:59')).toBe(99 * 60 + 59);
});

test('a malformed duration has no minutes', () => {
  expect(durationToMinutes('1:30')).toBeNull();
  expect(durationToMinutes('01:75')).toBeNull();
});
