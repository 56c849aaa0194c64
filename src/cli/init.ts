// `spacesync init DIR --link URL`: checks the link against the space (GET /connection), then writes
// DIR/.spacesync/config.json with mode 0600 (whoever reads the link can read and write the space).
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Wrap } from './types.js';
import { configPath, configSchema } from '../config.js';
import { isSpacesyncError, SpacesyncError } from '../errors.js';
import { createClient, resolveLimits, Scheduler, type ConnectionInfo } from '../client/index.js';
import { describeLink, normalizeLink } from '../redact.js';
import { journalPath } from '../stateDir.js';
import { shellQuote } from './format.js';

interface InitFlags {
  link?: string;
  apiKey?: string;
  force?: boolean;
  mode?: string;
}

export interface InitOptions {
  dir: string;
  link: string | undefined;
  apiKey: string | undefined;
  force: boolean;
  /** `backup`: the mirror only receives (config `mode`); left as the config has it when omitted. */
  mode?: string;
  cwd: string;
  out: (line: string) => void;
}

const LINK_FORM = 'https://<host>/links/<LINK_ID>/api/v1';
const COPY_AGAIN = 'Copy the connection link again from the app (it is made there, with its API key if it has one) and run `spacesync init` again.';

/** The client's error, said for someone running init: what went wrong with the link, and what to type next. */
function initError(e: SpacesyncError, host: string): SpacesyncError {
  const keep = { cause: e, details: e.details ?? {} };
  switch (e.code) {
    case 'link_not_found':
      return new SpacesyncError(
        'link_not_found',
        `The service at ${host} does not know this connection link (404): it was deleted, revoked or mistyped. Nothing was written. ${COPY_AGAIN}`,
        keep,
      );
    case 'auth_missing':
      return new SpacesyncError(
        'auth_missing',
        `This connection link needs an API key, and none was given. Nothing was written. Run init again with --api-key KEY (or SPACESYNC_API_KEY), using the key created with the link.`,
        keep,
      );
    case 'auth_rejected':
      return new SpacesyncError(
        'auth_rejected',
        `The service at ${host} did not accept the API key given for this link. Nothing was written. Check the key (it is shown once, when the link is created in the app) and run init again with the right --api-key.`,
        keep,
      );
    case 'network':
    case 'timeout': {
      if (speaksNoTls(e)) {
        return new SpacesyncError(
          'network',
          `The server at ${host} does not speak TLS (https://): it answered in plain HTTP. Nothing was written. If it is a local or test server, try the link with http:// instead of https://.`,
          keep,
        );
      }
      const why = e.cause instanceof Error ? e.cause.message : e.code === 'timeout' ? 'no answer in time' : 'no connection';
      return new SpacesyncError(
        e.code,
        `Could not reach the service at ${host} to check the link (${why}). Nothing was written. Check the network connection and the host part of the link, then run init again.`,
        keep,
      );
    }
    default:
      return new SpacesyncError(e.code, `Checking the link failed: ${e.message} Nothing was written; run init again once that is fixed.`, keep);
  }
}

/** An https:// request answered in plain HTTP: OpenSSL's EPROTO / "wrong version number". */
function speaksNoTls(e: unknown): boolean {
  for (let c: unknown = e, depth = 0; c instanceof Error && depth < 6; c = c.cause, depth++) {
    const code = (c as NodeJS.ErrnoException).code;
    if (code === 'EPROTO' || code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number|EPROTO/i.test(c.message)) return true;
  }
  return false;
}

function hostOf(link: string): string {
  try {
    return new URL(link).host;
  } catch {
    return "the link's host";
  }
}

/** The config file as it is now (its options are kept), or undefined when there is none. */
function readExisting(file: string, force: boolean): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SpacesyncError('config_invalid', `Cannot read the existing config file ${file}: ${(e as Error).message}. Check its permissions.`, { cause: e });
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    /* reported below */
  }
  if (force) return {};
  throw new SpacesyncError(
    'config_invalid',
    `The existing config file ${file} is not a JSON object of options, so it was left as it is. Fix it, or run init again with --force to replace it.`,
  );
}

/** Writes the file aside with mode 0600 and renames it into place: never half written, never readable by others. */
function writeSecretFile(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  chmodSync(tmp, 0o600); // the umask may have taken bits away, never added: set exactly
  renameSync(tmp, file);
}

export async function runInit(o: InitOptions): Promise<number> {
  // One spelling stored and compared: `…/api/v1/` and `…/api/v1` are the same link.
  const link = o.link === undefined ? undefined : normalizeLink(o.link);
  if (!link) {
    throw new SpacesyncError(
      'usage',
      `init needs the space's connection link: spacesync init ${shellQuote(o.dir)} --link ${LINK_FORM} (or set SPACESYNC_LINK). The link is made in the app.`,
    );
  }
  // The value is never echoed: a mistyped link is still a secret.
  if (!configSchema.shape.link.safeParse(link).success) {
    throw new SpacesyncError(
      'config_invalid',
      `The link given to init is not a connection link: it must look like ${LINK_FORM}. Nothing was written. ${COPY_AGAIN}`,
    );
  }
  const mode = o.mode === undefined ? undefined : parseMode(o.mode);
  const apiKey = o.apiKey === undefined || o.apiKey === '' ? undefined : o.apiKey;
  const root = path.resolve(o.cwd, o.dir);
  if (statSync(root, { throwIfNoEntry: false })?.isDirectory() === false) {
    throw new SpacesyncError('usage', `${root} is a file, not a folder. Give init the folder to mirror the space into.`);
  }
  const file = configPath(root);
  const existing = readExisting(file, o.force);
  if (existing && typeof existing.link === 'string' && normalizeLink(existing.link) !== link && !o.force) {
    throw new SpacesyncError(
      'refused_safety',
      `${root} is already connected to another link (${describeLink(existing.link)}), so its config was left as it is. Run init again with --force to connect it to the new link.`,
    );
  }

  // A person is waiting: one quick retry, then the answer (the daemon's client is more patient).
  const scheduler = new Scheduler({ limits: resolveLimits(), maxRetries: 1, backoff: { baseMs: 500, capMs: 1000 } });
  const client = createClient({ link, ...(apiKey ? { apiKey } : {}), timeoutMs: 15_000, scheduler });
  // The client waits out its retries on unreferenced timers: hold the process open meanwhile.
  const hold = setInterval(() => undefined, 60_000);
  let info: ConnectionInfo;
  try {
    info = await client.getConnection({ priority: 'user' });
  } catch (e) {
    if (isSpacesyncError(e)) throw initError(e, hostOf(link));
    throw e;
  } finally {
    clearInterval(hold);
    client.close();
    scheduler.close();
  }

  mkdirSync(root, { recursive: true });
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const next: Record<string, unknown> = { ...(existing ?? {}), link };
  if (mode) next.mode = mode;
  if (apiKey) next.apiKey = apiKey;
  else if (typeof existing?.link !== 'string' || normalizeLink(existing.link) !== link) delete next.apiKey; // a key belongs to its link
  writeSecretFile(file, `${JSON.stringify(next, null, 2)}\n`);

  const replaced = typeof existing?.link === 'string' && normalizeLink(existing.link) !== link;
  o.out(`Connected to the space "${info.space.name}" (time zone ${info.space.timezone}) through ${describeLink(link)}.`);
  o.out(`Wrote ${file} (readable only by you: it holds the link${apiKey ? ' and the API key' : ''}).`);
  if (replaced && existsSync(journalPath(root))) {
    o.out(
      `Note: ${root} was synced with another link before; its journal still describes that space. If this is a different space, move ${journalPath(root)} aside before syncing.`,
    );
  }
  if (next.mode === 'backup')
    o.out('Backup mode: everything from the space arrives here, nothing here is sent to it (changes made here are kept and listed by `spacesync status`).');
  o.out('Next, start syncing (it keeps running; Ctrl-C stops it, --once does a single pass):');
  o.out(`  spacesync sync --dir ${shellQuote(root)}`);
  return 0;
}

export function registerInit(program: Command, wrap: Wrap): void {
  program
    .command('init')
    .description('check a connection link and write DIR/.spacesync/config.json')
    .argument('<dir>', 'the folder to mirror into (created when missing)')
    .option('--link <url>', 'connection link of the space (or SPACESYNC_LINK)')
    .option('--api-key <key>', 'API key, when the link needs one (or SPACESYNC_API_KEY)')
    .option('--force', 'replace a config that holds another link')
    .option('--mode <mode>', '"two-way" (the default) or "backup": everything from the space arrives, nothing is sent')
    .action(
      wrap(async (dir: string, flags: InitFlags) =>
        runInit({
          dir,
          link: flags.link ?? process.env.SPACESYNC_LINK,
          apiKey: flags.apiKey ?? process.env.SPACESYNC_API_KEY,
          force: flags.force === true,
          ...(flags.mode !== undefined ? { mode: flags.mode } : {}),
          cwd: process.cwd(),
          out: (line) => process.stdout.write(`${line}\n`),
        }),
      ),
    );
}

/** `--mode`'s value, checked: a typo must not leave a mirror two-way that was meant as a backup. */
export function parseMode(value: string): 'two-way' | 'backup' {
  if (value === 'two-way' || value === 'backup') return value;
  throw new SpacesyncError('usage', `--mode takes "two-way" or "backup" (got "${value}"). Nothing was changed.`);
}
