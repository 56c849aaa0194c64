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

// Inside src/sync the code is by kind of content, each folder entered only through its index.ts:
//   context/ (what every slice may use) ← the slices ← cycle/ (the slices in order) ← daemon/
// A slice imports context/ (and the layers below src/sync) and never another slice: what another
// slice must do inside it is a step declared in context/sliceSteps.ts that the cycle provides.
// context/ imports no slice; only cycle/ imports the slices; daemon/ imports cycle/ and context/.
// The CLI imports the sync shell through src/sync/index.ts only.
const SYNC_SLICES = ['documents', 'links', 'media', 'collections', 'whiteboards', 'tasks', 'versions'];
const SYNC_FOLDERS = ['context', ...SYNC_SLICES, 'cycle', 'daemon'];
const SYNC_MAY_IMPORT = {
  context: [],
  ...Object.fromEntries(SYNC_SLICES.map((slice) => [slice, ['context']])),
  cycle: ['context', ...SYNC_SLICES],
  daemon: ['context', 'cycle'],
};
const SYNC_WHY = {
  context: 'context/ is what every slice may use: it imports no slice, nor cycle/ or daemon/',
  ...Object.fromEntries(
    SYNC_SLICES.map((slice) => [
      slice,
      'a slice imports only context/ (and the layers below); what another slice must do inside it is a step declared in context/sliceSteps.ts that the cycle provides',
    ]),
  ),
  cycle: 'nothing but the CLI, through src/sync/index.ts, imports daemon/',
  daemon: 'the daemon runs the cycle: it imports only cycle/ and context/',
};
const UPWARD = { regex: layerRegex(['server', 'cli']), message: 'src/sync may not import that layer (imports go downward only; see docs/architecture.md).' };
const deepRegex = (prefix) => `^${prefix}(${SYNC_FOLDERS.join('|')})/(?!index\\.js$).+$`;
const deepMessage = 'enter another folder of src/sync only through its index.ts (see docs/architecture.md).';

const syncFolder = (folder) => {
  const barred = SYNC_FOLDERS.filter((f) => f !== folder && !SYNC_MAY_IMPORT[folder].includes(f));
  return {
    files: [`src/sync/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            UPWARD,
            {
              regex: `^(\\.\\./)+(${barred.join('|')})(/.*)?$`,
              message: `src/sync/${folder} may not import ${barred.join(', ')}: ${SYNC_WHY[folder]} (see docs/architecture.md).`,
            },
            { regex: deepRegex('(\\.\\./)+'), message: `src/sync/${folder}: ${deepMessage}` },
          ],
        },
      ],
    },
  };
};

export const syncFolderRules = [
  ...SYNC_FOLDERS.map(syncFolder),
  {
    files: ['src/sync/index.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [UPWARD, { regex: deepRegex('\\./'), message: `src/sync/index.ts: ${deepMessage}` }] }],
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
              regex: `^(\\.\\./)+sync/(${SYNC_FOLDERS.join('|')})(/.*)?$`,
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
              regex: `^(\\.\\./)+sync/(${SYNC_FOLDERS.join('|')})(/.*)?$`,
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
  ...syncFolderRules,
];
