// Validation of answers with zod: a wrong shape is a `bad_response`, never a corrupted journal.
import type { z } from 'zod';
import { SpacesyncError } from '../errors.js';
import type { Parse } from './apiCall.js';

/** Validates the answer against `schema`; a mismatch is a `bad_response`, never a corrupted journal. */
export function check<S extends z.ZodType>(schema: S): Parse<z.infer<S>> {
  return (value) => {
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    const where = r.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`)
      .join('; ');
    throw new SpacesyncError('bad_response', `unexpected shape (${where})`);
  };
}

/** `check`, with the result typed as the wire type `T` (the schema checks what the journal relies on). */
export function checkAs<T>(schema: z.ZodType): Parse<T> {
  return check(schema) as Parse<T>;
}
