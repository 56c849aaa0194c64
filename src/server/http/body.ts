// Request bodies are checked with zod; a failure is the service's VALIDATION_ERROR issue list.
import type { z } from 'zod';
import { ApiError } from './apiError.js';

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  throw new ApiError(400, {
    error: 'Validation failed',
    code: 'VALIDATION_ERROR',
    details: r.error.issues.map((i) => ({
      code: i.code === 'custom' ? 'custom' : i.code,
      message: i.message,
      path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    })),
  });
}
