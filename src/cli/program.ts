// The commander program: one file per command registers itself here.
import { Command, CommanderError } from 'commander';
import { registerServer } from './server.js';
import { registerSync } from './sync.js';
import { registerInit } from './init.js';
import { registerStatus } from './status.js';
import { registerConflicts } from './conflicts.js';
import { registerPlan } from './plan.js';
import { registerDemo } from './demo.js';
import { VERSION } from '../version.js';

/** What a command's action gives back: the process exit code. */
export type Action<A extends unknown[]> = (...args: A) => Promise<number>;

/** Commands report their exit code through this holder rather than calling process.exit. */
export interface ExitHolder {
  code: number;
}

export function buildProgram(exit: ExitHolder): Command {
  const program = new Command('spacesync')
    .description('Keep a notes space and a folder of Markdown files in sync, both ways.')
    .version(VERSION)
    .showHelpAfterError('(run `spacesync --help` for the commands)')
    .exitOverride();
  const wrap = <A extends unknown[]>(fn: Action<A>) => async (...args: A) => {
    exit.code = await fn(...args);
  };
  registerServer(program, wrap);
  registerSync(program, wrap);
  registerInit(program, wrap);
  registerStatus(program, wrap);
  registerConflicts(program, wrap);
  registerPlan(program, wrap);
  registerDemo(program, wrap);
  return program;
}

export type Wrap = <A extends unknown[]>(fn: Action<A>) => (...args: A) => Promise<void>;

export { CommanderError };
