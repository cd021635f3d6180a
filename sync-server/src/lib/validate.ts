import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { z } from 'zod';
import { AppError, ErrorCode } from './errors.ts';

/**
 * zValidator that reports failures through the app's one error path:
 * 400 `{ code: 'bad_request', message, issues }`, with the first issue's message as the message.
 */
export function validate<T extends z.ZodType, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
) {
  return zValidator(target, schema, (result) => {
    if (!result.success) {
      const issues = result.error.issues.map((issue) => ({
        path: issue.path.join('.'),
        message: issue.message,
      }));
      const first = issues[0];
      const message = first
        ? first.path
          ? `${first.path}: ${first.message}`
          : first.message
        : 'Invalid input';
      throw new AppError(ErrorCode.BadRequest, message, issues);
    }
  });
}
