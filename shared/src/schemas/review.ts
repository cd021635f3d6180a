import { z } from 'zod';
import { IdSchema } from './common.ts';

export const ReviewMoreInfoSchema = z.object({
  flightName: z.string(),
  origin: z.string(),
  destination: z.string(),
});

/** A published review (spec §3 Review). */
export const ReviewSchema = z.object({
  id: IdSchema,
  rating: z.number().int().min(1).max(5),
  comment: z.string(),
  name: z.string(),
  airlineId: IdSchema,
  flightId: IdSchema,
  orderId: IdSchema.nullable(),
  moreInfo: z.array(ReviewMoreInfoSchema),
  createdAt: z.number().int(),
});
export type Review = z.infer<typeof ReviewSchema>;
