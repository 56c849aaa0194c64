// The layer boundaries: imports go downward only
//   cli, console → sync → (core, client, journal, mirror) → dialect;   server → dialect;
//   client and server → wire (the contract both share) → dialect.
// core and dialect are pure: no I/O module, no logger, no clock, no database.
// A wrong import is a lint error, so `npm run check` (and CI) fails on it.

const IO_BUILTINS = [
  'fs',
  'fs/promises',
  'http',
  'https',
  'http2',
  'net',
  'tls',
  'dgram',
  'dns',
  'child_process',
  'cluster',
  'worker_threads',
  'os',
  'readline',
  'process',
  'timers',
  'timers/promises',
  'v8',
  'vm',
];
const IO_PACKAGES = ['better-sqlite3', 'pino', 'fastify', 'chokidar', 'commander', 'undici'];

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const builtinRegex = `^(node:)?(${IO_BUILTINS.map(esc).join('|')})$`;
const packageRegex = `^(${IO_PACKAGES.map(esc).join('|')})(/.*)?$`;
/** A relative import that reaches into one of the named src/ folders or top-level modules. */
const layerRegex = (names) => `^(\\.\\./)+(${names.join('|')})(\\.js|\\.ts)?(/.*)?$`;

const pure = (layer, others) => ({
  files: [`src/${layer}/**/*.ts`],
  ignores: [`src/${layer}/**/*.test.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { regex: builtinRegex, message: `src/${layer} is pure: no I/O modules (decide in pure code, act in the shell).` },
          { regex: packageRegex, message: `src/${layer} is pure: no database, logger, server, watcher or queue packages.` },
          { regex: layerRegex(others), message: `src/${layer} may not import that layer (imports go downward only; see docs/architecture.md).` },
        ],
      },
    ],
    'no-restricted-globals': [
      'error',
      { name: 'fetch', message: `src/${layer} is pure: no network.` },
      { name: 'setTimeout', message: `src/${layer} is pure: time is passed in.` },
      { name: 'setInterval', message: `src/${layer} is pure: time is passed in.` },
    ],
    'no-restricted-properties': [
      'error',
      { object: 'Date', property: 'now', message: `src/${layer} is pure: pass \`now\` in.` },
      { object: 'Math', property: 'random', message: `src/${layer} is pure: pass ids or a seeded random in.` },
    ],
    'no-restricted-syntax': ['error', { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: `src/${layer} is pure: pass \`now\` in.` }],
  },
});

const shell = (layer, others) => ({
  files: [`src/${layer}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [{ regex: layerRegex(others), message: `src/${layer} may not import that layer (imports go downward only; see docs/architecture.md).` }],
      },
    ],
  },
});

// Inside src/sync the stages are folders, each entered only through its index.ts:
//   session → versions → pull, push → cycle → daemon
// A stage imports only the stages before it (pull and push never import each other; nothing but
// the CLI, through src/sync/index.ts, imports daemon/). The CLI imports src/sync/index.ts only.
const SYNC_STAGES = ['session', 'versions', 'pull', 'push', 'cycle', 'daemon'];
const SYNC_BELOW = {
  session: [],
  versions: ['session'],
  pull: ['session', 'versions'],
  push: ['session', 'versions'],
  cycle: ['session', 'versions', 'pull', 'push'],
  daemon: ['session', 'versions', 'pull', 'push', 'cycle'],
};
const deepRegex = (prefix) => `^${prefix}(${SYNC_STAGES.join('|')})/(?!index\\.js$).+$`;
const deepMessage = 'enter another stage of src/sync only through its index.ts (see docs/architecture.md).';

const syncStage = (stage) => {
  const above = SYNC_STAGES.filter((s) => s !== stage && !SYNC_BELOW[stage].includes(s));
  return {
    files: [`src/sync/${stage}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: layerRegex(['server', 'cli']), message: 'src/sync may not import that layer (imports go downward only; see docs/architecture.md).' },
            ...(above.length
              ? [
                  {
                    regex: `^\\.\\./(${above.join('|')})(/.*)?$`,
                    message: `src/sync/${stage} may not import ${above.join(', ')} (stages import only the ones before them; pull and push never each other; see docs/architecture.md).`,
                  },
                ]
              : []),
            { regex: deepRegex('\\.\\./'), message: `src/sync/${stage}: ${deepMessage}` },
          ],
        },
      ],
    },
  };
};

export const syncStageRules = [
  ...SYNC_STAGES.map(syncStage),
  {
    files: ['src/sync/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: layerRegex(['server', 'cli']), message: 'src/sync may not import that layer (imports go downward only; see docs/architecture.md).' },
            { regex: deepRegex('\\./'), message: `src/sync/index.ts: ${deepMessage}` },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+sync/(${SYNC_STAGES.join('|')})(/.*)?$`,
              message: 'src/cli imports the sync shell through src/sync/index.ts only (see docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    // The console (src/console) sits beside the CLI: it reads and acts through the commands' own
    // modules and the sync shell's face, never through the Space API server.
    files: ['src/console/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+sync/(${SYNC_STAGES.join('|')})(/.*)?$`,
              message: 'src/console imports the sync shell through src/sync/index.ts only (see docs/architecture.md).',
            },
            { regex: layerRegex(['server']), message: 'src/console may not import the Space API server (see docs/architecture.md).' },
          ],
        },
      ],
    },
  },
];

export const layerRules = [
  pure('dialect', ['core', 'client', 'journal', 'mirror', 'sync', 'server', 'cli', 'console', 'log', 'config', 'wire', 'defaults']),
  pure('wire', ['core', 'client', 'journal', 'mirror', 'sync', 'server', 'cli', 'console', 'log', 'config', 'defaults']),
  pure('core', ['client', 'journal', 'mirror', 'sync', 'server', 'cli', 'console', 'log', 'config']),
  shell('client', ['core', 'journal', 'mirror', 'sync', 'server', 'cli', 'console', 'config']),
  shell('journal', ['client', 'mirror', 'sync', 'server', 'cli', 'console', 'config']),
  shell('mirror', ['client', 'journal', 'sync', 'server', 'cli', 'console', 'config']),
  shell('sync', ['server', 'cli', 'console']),
  shell('server', ['core', 'client', 'journal', 'mirror', 'sync', 'cli', 'console']),
  shell('service', ['core', 'client', 'journal', 'mirror', 'sync', 'server', 'cli', 'console', 'config']),
  ...syncStageRules,
];
