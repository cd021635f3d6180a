import { z } from 'zod';
import { text } from './text.ts';
import { IdSchema } from './common.ts';

export const ReviewMoreInfoSchema = z.object({
  flightName: text(),
  origin: text(),
  destination: text(),
});

/** A published review (spec §3 Review). */
export const ReviewSchema = z.object({
  id: IdSchema,
  rating: z.number().int().min(1).max(5),
  comment: text(),
  name: text(),
  airlineId: IdSchema,
  flightId: IdSchema,
  orderId: IdSchema.nullable(),
  moreInfo: z.array(ReviewMoreInfoSchema),
  createdAt: z.number().int(),
});
export type Review = z.infer<typeof ReviewSchema>;
