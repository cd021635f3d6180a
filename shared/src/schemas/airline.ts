import { z } from 'zod';
import { text } from './text.ts';
import { IdSchema } from './common.ts';

/** An approved airline (spec §3 Airline): its name, owner user and logo image. */
export const AirlineSchema = z.object({
  id: IdSchema,
  name: text(),
  userId: IdSchema.nullable(),
  image: text(),
});
export type Airline = z.infer<typeof AirlineSchema>;
