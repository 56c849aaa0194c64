// The one validated configuration: defaults < config file < environment < command-line flags.
// Read once at start; every part of the program is handed only the piece it needs.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULTS } from './defaults.js';
import { SpacesyncError } from './errors.js';
import { describeLink, normalizeLink } from './redact.js';
import { configPath } from './stateDir.js';

const LINK_SHAPE = /^https?:\/\/[^/\s]+(\/[^\s]*)?\/links\/[^/\s]+\/api\/v1\/?$/;

export const configSchema = z.strictObject({
  link: z.string().regex(LINK_SHAPE, 'must be a connection link of the form https://<host>/links/<LINK_ID>/api/v1').optional(),
  apiKey: z.string().min(1, 'must not be empty (leave it out when the link has no key)').optional(),
  dir: z.string().min(1, 'must name the folder to mirror into'),
  poll: z
    .strictObject({
      minSeconds: z.number().min(1, 'must be at least 1').default(DEFAULTS.poll.minSeconds),
      maxSeconds: z.number().min(1, 'must be at least 1').default(DEFAULTS.poll.maxSeconds),
      fullScanMinutes: z.number().min(1, 'must be at least 1').default(DEFAULTS.poll.fullScanMinutes),
    })
    .default(DEFAULTS.poll)
    .refine((p) => p.maxSeconds >= p.minSeconds, { message: 'maxSeconds must be at least minSeconds' }),
  debounceMs: z.number().int('must be a whole number').min(0, 'must not be negative').default(DEFAULTS.debounceMs),
  maxDeletePercent: z.number().min(0, 'must be between 0 and 100').max(100, 'must be between 0 and 100').default(DEFAULTS.maxDeletePercent),
  ignore: z.array(z.string().min(1, 'patterns must not be empty')).default([]),
  budget: z
    .strictObject({
      requestsPerMinute: z.number().int().positive('must be positive').default(DEFAULTS.budget.requestsPerMinute),
      requestsPerAddress10s: z.number().int().positive('must be positive').default(DEFAULTS.budget.requestsPerAddress10s),
      blocksPerMinute: z.number().int().positive('must be positive').default(DEFAULTS.budget.blocksPerMinute),
      reservePercent: z.number().min(0, 'must be between 0 and 90').max(90, 'must be between 0 and 90').default(DEFAULTS.budget.reservePercent),
      // Multiplies the budgets' windows, to match a server run with --limit-scale (tests, benchmarks).
      scale: z.number().positive('must be positive').default(DEFAULTS.budget.scale),
    })
    .default(DEFAULTS.budget),
  // Desktop notifications of what needs a person (a conflict, a file held back, the space out of
  // reach for 10 minutes, a failing git push); unset: on where a desktop session is present.
  notify: z.boolean().optional(),
  // `backup`: everything from the space arrives, nothing is ever sent to it (local changes are kept and listed).
  mode: z.enum(['two-way', 'backup']).default(DEFAULTS.mode),
  git: z
    .strictObject({
      autoCommit: z.boolean().default(DEFAULTS.git.autoCommit),
      // After each backup commit, push the branch: to its upstream, or to this remote.
      push: z.boolean().default(DEFAULTS.git.push),
      remote: z.string().min(1, "must name a remote of the mirror's repository").optional(),
    })
    .default(DEFAULTS.git),
  log: z
    .strictObject({
      level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default(DEFAULTS.log.level),
      file: z.boolean().default(DEFAULTS.log.file),
    })
    .default(DEFAULTS.log),
  trashRetentionDays: z.number().int().min(0).default(DEFAULTS.trashRetentionDays),
  versions: z
    .strictObject({
      keepDays: z.number().int('must be a whole number').min(0, 'must not be negative').default(DEFAULTS.versions.keepDays),
      maxMiB: z.number().min(0, 'must not be negative').default(DEFAULTS.versions.maxMiB),
    })
    .default(DEFAULTS.versions),
  assets: z
    .strictObject({
      maxMiB: z.number().positive('must be positive').default(DEFAULTS.assets.maxMiB),
    })
    .default(DEFAULTS.assets),
});

export type Config = z.infer<typeof configSchema>;

/** Options that only a command line gives (never stored in the file). */
export interface ConfigFlags {
  link?: string;
  apiKey?: string;
  dir?: string;
  config?: string;
  verbose?: boolean;
}

export interface LoadConfigInput {
  flags?: ConfigFlags;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Injected for tests; reads a file or returns undefined when it does not exist. */
  readFile?: (file: string) => string | undefined;
}

export { configPath };

function readFileIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') {
      // A file where a folder should be: `--dir README.md`, not a question of permissions.
      const exists = (p: string) => {
        try {
          return statSync(p) !== undefined;
        } catch {
          return false;
        }
      };
      let p = path.dirname(file);
      while (path.dirname(p) !== p && !exists(p)) p = path.dirname(p);
      throw new SpacesyncError(
        'usage',
        `${p} is a file, not a folder, so it holds no .spacesync/config.json. Pass the mirror folder with --dir (or SPACESYNC_DIR).`,
        { cause: e },
      );
    }
    throw new SpacesyncError('config_invalid', `Cannot read the config file ${file}: ${(e as Error).message}. Check its permissions.`, { cause: e });
  }
}

/** Formats zod's issues as one line per field: what is wrong and with which value. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], input: unknown): string {
  return issues
    .map((issue) => {
      const where = issue.path.length ? issue.path.join('.') : '(top level)';
      let got: unknown = input;
      for (const key of issue.path) got = got && typeof got === 'object' ? (got as Record<PropertyKey, unknown>)[key as PropertyKey] : undefined;
      const shown = typeof got === 'string' && issue.path[0] === 'link' ? describeLink(got) : issue.path[0] === 'apiKey' ? '[hidden]' : JSON.stringify(got);
      let message = issue.message;
      if (issue.code === 'unrecognized_keys')
        message = `unknown option${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')} (see sync.config.example.json for the options)`;
      else if (issue.code === 'invalid_type') message = `must be ${issue.expected}`;
      return `  - ${where}: ${message}${got === undefined || issue.code === 'unrecognized_keys' ? '' : ` (got ${shown})`}`;
    })
    .join('\n');
}

/** Keys starting with "//" are comments (JSON has none): sync.config.example.json uses them. */
function stripComments(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k.startsWith('//')) continue;
    out[k] = v && typeof v === 'object' && !Array.isArray(v) ? stripComments(v as Record<string, unknown>) : v;
  }
  return out;
}

export function loadConfig(input: LoadConfigInput = {}): Config {
  const flags = input.flags ?? {};
  const env = input.env ?? process.env;
  const cwd = input.cwd ?? process.cwd();
  const read = input.readFile ?? readFileIfPresent;

  const dir = path.resolve(cwd, flags.dir ?? env.SPACESYNC_DIR ?? '.');
  const file = flags.config ? path.resolve(cwd, flags.config) : configPath(dir);
  const text = read(file);
  if (text === undefined && flags.config) {
    throw new SpacesyncError(
      'config_missing',
      `The config file ${file} does not exist. Check the --config path, or create one with \`spacesync init DIR --link URL\`.`,
    );
  }

  let fromFile: Record<string, unknown> = {};
  if (text !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new SpacesyncError(
        'config_invalid',
        `The config file ${file} is not valid JSON (${(e as Error).message}). Fix it, or move it away and run \`spacesync init\` again.`,
      );
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new SpacesyncError('config_invalid', `The config file ${file} must hold a JSON object of options (see sync.config.example.json).`);
    }
    fromFile = stripComments(parsed as Record<string, unknown>);
  }

  const merged: Record<string, unknown> = { ...fromFile };
  // A dir inside the file is relative to the file's folder's owner (the mirror root).
  merged.dir =
    flags.dir !== undefined || env.SPACESYNC_DIR !== undefined || fromFile.dir === undefined
      ? dir
      : path.resolve(path.dirname(path.dirname(file)), String(fromFile.dir));
  const link = flags.link ?? env.SPACESYNC_LINK ?? fromFile.link;
  if (link !== undefined) merged.link = typeof link === 'string' ? normalizeLink(link) : link;
  const apiKey = flags.apiKey ?? env.SPACESYNC_API_KEY ?? fromFile.apiKey;
  if (apiKey !== undefined) merged.apiKey = apiKey;
  if (flags.verbose) merged.log = { ...(fromFile.log as object | undefined), level: 'debug' };

  const result = configSchema.safeParse(merged);
  if (!result.success) {
    const source = text === undefined ? 'the command line and environment' : `${file} (with the command line and environment)`;
    throw new SpacesyncError(
      'config_invalid',
      `The configuration from ${source} is invalid:\n${describeIssues(result.error.issues, merged)}\nFix these and run the command again.`,
    );
  }
  return result.data;
}

/** The link is required by commands that talk to a space; say where to put it when it is missing. */
export function requireLink(config: Config): string {
  if (!config.link) {
    throw new SpacesyncError(
      'config_missing',
      `No connection link for ${config.dir}. Pass --link URL, set SPACESYNC_LINK, or run \`spacesync init ${config.dir} --link URL\` once.`,
    );
  }
  return config.link;
}
