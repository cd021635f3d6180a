import { z } from 'zod';
import { IdSchema } from './common.ts';

/** An approved airline (spec §3 Airline): its name, owner user and logo image. */
export const AirlineSchema = z.object({
  id: IdSchema,
  name: z.string(),
  userId: IdSchema.nullable(),
  image: z.string(),
});
export type Airline = z.infer<typeof AirlineSchema>;
