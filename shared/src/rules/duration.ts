import { DURATION_MAX_LENGTH } from '../constants.ts';

/**
 * The flight form's estimated duration (spec §5): text of at most 5 characters, digits and a
 * colon, shaped hh:mm. Hours run 00 to 99, minutes 00 to 59, and the duration is not zero.
 */
const DURATION_PATTERN = /^(\d{2}):([0-5]\d)$/;

/** The most digits a duration holds: two for hours, two for minutes. */
const DURATION_MAX_DIGITS = 4;

/**
 * Reformats the duration field as the user types: keeps digits only (at most 4), and puts a
 * colon after the first two once a third digit arrives.
 * "1" → "1", "12" → "12", "123" → "12:3", "1234" → "12:34", "123456" → "12:34",
 * "1a2:3" → "12:3", "12:" → "12" (so backspacing over the colon works).
 * The result is at most 5 characters and formatting it again changes nothing.
 */
export function formatDurationInput(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, DURATION_MAX_DIGITS);
  if (digits.length <= 2) return digits;
  return `${digits.slice(0, 2)}:${digits.slice(2)}`;
}

/**
 * Whether a duration is complete and valid: exactly hh:mm (5 characters), minutes 00–59, not
 * 00:00. "02:30" and "99:59" are valid; "2:30", "02:60", "00:00" and "02:3" are not.
 */
export function isValidDuration(value: string): boolean {
  if (value.length > DURATION_MAX_LENGTH) return false;
  const minutes = durationToMinutes(value);
  return minutes !== null && minutes > 0;
}

/**
 * The number of minutes in a well-formed hh:mm duration ("01:30" → 90, "00:00" → 0), or `null`
 * when the text is not hh:mm with minutes 00–59.
 */
export function durationToMinutes(value: string): number | null {
  const match = DURATION_PATTERN.exec(value);
  if (match === null) return null;
  return Number(match[1]) * 60 + Number(match[2]);
}
