// The commander program: one file per command registers itself here. Only the command being
// run is loaded (every command pulls in its own layers: the server, the sync engine…), so a
// command starts without paying for the others; --help loads them all to list them.
import { Command, CommanderError } from 'commander';
import { VERSION } from '../version.js';
import type { ExitHolder, Register, Wrap } from './types.js';

export type { ExitHolder } from './types.js';

/** In the order `--help` lists them. */
const COMMANDS: Record<string, () => Promise<Register>> = {
  server: async () => (await import('./server.js')).registerServer,
  sync: async () => (await import('./sync.js')).registerSync,
  init: async () => (await import('./init.js')).registerInit,
  status: async () => (await import('./status.js')).registerStatus,
  conflicts: async () => (await import('./conflicts.js')).registerConflicts,
  approve: async () => (await import('./approve.js')).registerApprove,
  history: async () => (await import('./history.js')).registerHistory,
  restore: async () => (await import('./restore.js')).registerRestore,
  revert: async () => (await import('./revert.js')).registerRevert,
  plan: async () => (await import('./plan.js')).registerPlan,
  demo: async () => (await import('./demo.js')).registerDemo,
  service: async () => (await import('./service.js')).registerService,
  console: async () => (await import('./console.js')).registerConsole,
};

/** The commands `args` (the user's words, without node and the script) needs registered. */
export function commandsFor(args: readonly string[]): string[] {
  const first = args[0];
  if (first !== undefined && first in COMMANDS) return [first];
  if (first === '-V' || first === '--version') return [];
  return Object.keys(COMMANDS);
}

/** The program for `args` (the user's words): registers only the commands they need. */
export async function buildProgram(exit: ExitHolder, args: readonly string[]): Promise<Command> {
  const program = new Command('spacesync')
    .description('Keep a notes space and a folder of Markdown files in sync, both ways.')
    .version(VERSION)
    // Program options only before the command: `restore FILE --version N` is the command's own.
    .enablePositionalOptions()
    .showHelpAfterError('(run `spacesync --help` for the commands)')
    .exitOverride();
  const wrap: Wrap =
    (fn) =>
    async (...a) => {
      exit.code = await fn(...a);
    };
  for (const name of commandsFor(args)) (await COMMANDS[name]!())(program, wrap, buildProgram);
  return program;
}

export { CommanderError };
