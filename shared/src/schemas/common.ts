import { z } from 'zod';
import { text } from './text.ts';

/** Server-generated identifiers are UUIDs. */
export const IdSchema = z.uuid();
/** Calendar date, yyyy-mm-dd. */
export const DateStringSchema = z.iso.date();
/** Time of day, hh:mm (24 h). */
export const HourSchema = text().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use hh:mm');
/** Money in integer cents. */
export const CentsSchema = z.number().int().nonnegative();
/** ISO timestamp as sent over the wire. */
export const TimestampSchema = z.iso.datetime({ offset: true });
