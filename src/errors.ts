// One error class for every failure spacesync throws, told apart by a stable `code`.
// Messages say what happened, to what, and what to do next.

export type ErrorCode =
  // configuration and command line
  | 'config_invalid'
  | 'config_missing'
  | 'usage'
  // the API client
  | 'rate_limited'
  | 'not_found'
  | 'validation'
  | 'auth_missing'
  | 'auth_rejected'
  | 'link_not_found'
  | 'server'
  | 'network'
  | 'timeout'
  | 'maybe_applied'
  | 'bad_response'
  | 'unavailable'
  | 'too_large'
  | 'cancelled'
  // the dialect
  | 'dialect_input'
  | 'collection_table'
  // local state
  | 'journal_corrupt'
  | 'journal_newer'
  | 'locked'
  | 'state_lost'
  | 'mirror_io'
  | 'mirror_symlink'
  /** A file or folder moved or removed here while a step was moving it: the next cycle looks again. */
  | 'mirror_changed'
  // sync decisions
  | 'refused_safety'
  | 'backup_mode'
  | 'not_implemented'
  // git backups
  | 'git_missing'
  | 'git_failed'
  // the service manager (systemd, launchd)
  | 'service_failed';

export class SpacesyncError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SpacesyncError';
    this.code = code;
    this.details = options?.details;
  }
}

/** The codes of a space out of reach (no answer, no answer in time, the service down), not of a request it refused. */
export const OUT_OF_REACH_CODES: ReadonlySet<string> = new Set<ErrorCode>(['network', 'timeout', 'unavailable']);

export function isSpacesyncError(e: unknown, code?: ErrorCode): e is SpacesyncError {
  return e instanceof SpacesyncError && (code === undefined || e.code === code);
}
