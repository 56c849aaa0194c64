// The pino logger factory. Every record passes through redaction: link ids and API keys never
// reach a log line, wherever they hide (message, fields, nested objects, error stacks).
import pino, { type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { redactValue, redactText } from './redact.js';

export type { Logger } from 'pino';

/**
 * Bindings for a record the command already tells the user in its own words: it goes to the
 * log file, and to the terminal only with --verbose. `logger.error({ ...FILE_ONLY, err }, '…')`.
 */
export const FILE_ONLY = { show: false } as const;

export interface LoggerOptions {
  level?: LevelWithSilent;
  /** Values to mask wherever they appear (the API key, the full link). */
  secrets?: readonly string[];
  /** Where JSON lines go; stdout when omitted. Tests pass a stream and read it. */
  destination?: DestinationStream;
  name?: string;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = options.secrets ?? [];
  // pino serialises child bindings once, outside the hooks: redact them on the way in.
  const guard = (logger: Logger): Logger => {
    const child = logger.child.bind(logger) as unknown as (b: pino.Bindings, o?: pino.ChildLoggerOptions) => Logger;
    const redacted = (bindings: pino.Bindings, opts?: pino.ChildLoggerOptions): Logger => guard(child(redactValue(bindings, secrets) as pino.Bindings, opts));
    logger.child = redacted as unknown as Logger['child'];
    return logger;
  };
  return guard(
    pino(
      {
        name: options.name ?? 'spacesync',
        level: options.level ?? 'info',
        base: undefined,
        hooks: {
          logMethod(args, method) {
            const clean = args.map((a) => (typeof a === 'string' ? redactText(a, secrets) : redactValue(a, secrets)));
            return method.apply(this, clean as Parameters<typeof method>);
          },
        },
        formatters: {
          log: (obj) => redactValue(obj, secrets) as Record<string, unknown>,
        },
      },
      options.destination ?? pino.destination(1),
    ),
  );
}
