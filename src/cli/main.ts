// Runs the command line: parses argv, runs one command, turns errors into a clear message and
// an exit code (0 ok, 1 error, 2 refused by a safety check, 3 conflicts, 64 usage).
import { buildProgram, CommanderError, type ExitHolder } from './program.js';
import { isSpacesyncError } from '../errors.js';
import { redactText } from '../redact.js';
import { exitCodeOf } from './format.js';

export async function main(argv: readonly string[]): Promise<number> {
  const exit: ExitHolder = { code: 0 };
  const program = await buildProgram(exit, argv.slice(2));
  try {
    await program.parseAsync([...argv]);
    return exit.code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version end through here with code 0; usage errors were already printed.
      return e.exitCode === 0 ? 0 : 64;
    }
    if (isSpacesyncError(e)) {
      process.stderr.write(`spacesync: ${redactText(e.message)}\n`);
      return exitCodeOf(e);
    }
    const io = ioFailure(e);
    if (io) {
      process.stderr.write(`spacesync: ${redactText(io)}\n`);
      return 1;
    }
    const err = e as Error;
    process.stderr.write(`spacesync: unexpected error: ${redactText(err?.stack ?? String(e))}\nThis is a bug; please report it with the lines above.\n`);
    return 1;
  }
}

/** An operating system's refusal (a full disk, no permission) is no bug: said as what it is, without a stack. */
function ioFailure(e: unknown): string | null {
  const x = e as NodeJS.ErrnoException;
  if (!(e instanceof Error) || typeof x.code !== 'string' || typeof x.syscall !== 'string') return null;
  const on = x.path ? ` (${x.syscall} ${x.path})` : ` (${x.syscall})`;
  switch (x.code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return `the disk is full${on}. Free some space and run spacesync again; nothing was lost, and what was under way is completed then.`;
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return `spacesync may not write there${on}: ${x.message}. Check the folder's permissions (or that its disk is not read-only), then run again.`;
    case 'EMFILE':
    case 'ENFILE':
      return `too many files are open${on}. Close some programs (or raise the limit with \`ulimit -n\`), then run again.`;
    default:
      return null;
  }
}
