// Deep equality of JSON values, key order aside: two element properties say the same thing.

/** The value as JSON with object keys sorted: equal strings for equal values. */
export function canonicalJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}

/** Whether `a` and `b` are the same JSON value; a missing value and null are the same. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}
