export * from './constants.ts';
export * from './messages.ts';
export * from './schemas/common.ts';
export * from './schemas/flight.ts';
export * from './schemas/airline.ts';
export * from './schemas/review.ts';
