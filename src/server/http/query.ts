// Reading a request: its body checked with zod (parseBody), its query parameters the way the service does: unknown ones ignored, arrays as repeated
// keys or a single value, booleans `true`/`false`, dates `YYYY-MM-DD`/`today`/`tomorrow`/`yesterday`.
import { validationFailed, ApiError } from './apiError.js';
import { resolveDate } from '../dates.js';
import type { z } from 'zod';

export type Query = Record<string, string | string[] | undefined>;

/** One value; the first when the key is repeated. */
export function queryString(q: Query, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[0] : v;
}

export function queryArray(q: Query, name: string): string[] | undefined {
  const v = q[name];
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v : [v];
}

export function queryBool(q: Query, name: string, fallback: boolean): boolean {
  const v = queryString(q, name);
  if (v === undefined) return fallback;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw validationFailed([{ message: `'${name}' must be true or false.`, path: [name] }]);
}

export function queryInt(q: Query, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const v = queryString(q, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (v.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
    throw validationFailed([{ message: `'${name}' must be a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}.`, path: [name] }]);
  }
  return n;
}

/** A date parameter resolved in the space's time zone; undefined when absent. */
export function queryDate(q: Query, name: string, now: number, timezone: string): string | undefined {
  const v = queryString(q, name);
  if (v === undefined) return undefined;
  const d = resolveDate(v, now, timezone);
  if (d === undefined) throw validationFailed([{ message: `'${name}' must be YYYY-MM-DD, today, tomorrow or yesterday.`, path: [name] }]);
  return d;
}

// Request bodies are checked with zod; a failure is the service's VALIDATION_ERROR issue list.
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
