// The exit code of an error, and, for `--json`, the error as a JSON object on stdout: a script that
// asked for JSON gets JSON whatever happened (`{"error": {"code", "message", "exitCode"}}`).
import { isSpacesyncError } from '../errors.js';
import { redactText } from '../redact.js';

/** 2 refused by a safety check, 64 a usage mistake, 1 any other error. */
export function exitCodeOf(e: unknown): number {
  if (!isSpacesyncError(e)) return 1;
  if (e.code === 'refused_safety') return 2;
  if (e.code === 'usage') return 64;
  return 1;
}

/**
 * Runs a command's action; with `json`, an error it throws is printed as a JSON object on stdout
 * (the link masked) and becomes the exit code, instead of a line on stderr and nothing on stdout.
 */
export async function withJsonErrors(json: boolean | undefined, action: () => Promise<number>): Promise<number> {
  try {
    return await action();
  } catch (e) {
    if (!json || !isSpacesyncError(e)) throw e;
    const exitCode = exitCodeOf(e);
    process.stdout.write(`${JSON.stringify({ error: { code: e.code, message: redactText(e.message), exitCode } }, null, 2)}\n`);
    return exitCode;
  }
}
