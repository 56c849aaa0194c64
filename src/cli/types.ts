// The shapes every command shares with the program that registers it: what an action returns,
// how its exit code is held, the wrapper that runs it, and the program builder a command can run
// another command through (the demo runs `sync`). Commands import these from here, not from
// program.ts, so no command and the program import each other.
import type { Command } from 'commander';

/** What a command's action gives back: the process exit code. */
export type Action<A extends unknown[]> = (...args: A) => Promise<number>;

/** Commands report their exit code through this holder rather than calling process.exit. */
export interface ExitHolder {
  code: number;
}

export type Wrap = <A extends unknown[]>(fn: Action<A>) => (...args: A) => Promise<void>;

/** Builds the program for a command line (the user's words), as `buildProgram` does. */
export type BuildProgram = (exit: ExitHolder, args: readonly string[]) => Promise<Command>;

/** How a command registers itself on the program. */
export type Register = (program: Command, wrap: Wrap, build: BuildProgram) => void;

/**
 * Resolves at the first SIGINT or SIGTERM, for a command that runs until stopped (the server, the
 * console). Listening starts at once: a caller that stops it as soon as it reads the command's first
 * line finds it stopping cleanly, not killed by the signal's default action.
 */
export function untilStopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
