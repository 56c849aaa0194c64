import { describe, expect, it } from 'vitest';
import { loadConfig, configPath, requireLink } from './config.js';
import { isSpacesyncError } from './errors.js';

const LINK = 'https://space.example/links/ABCDEF123456/api/v1';
const files = (map: Record<string, string>) => (f: string) => map[f];

function errorOf(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isSpacesyncError(e)) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('loadConfig', () => {
  it('gives defaults when nothing is configured', () => {
    const c = loadConfig({ cwd: '/home/u/notes', env: {}, readFile: files({}) });
    expect(c).toMatchObject({ dir: '/home/u/notes', maxDeletePercent: 50, debounceMs: 300, git: { autoCommit: false } });
    expect(c.poll).toEqual({ minSeconds: 15, maxSeconds: 120, fullScanMinutes: 30 });
    expect(c.assets).toEqual({ maxMiB: 100 });
    expect(c.link).toBeUndefined();
  });

  it('rejects an assets.maxMiB that is not positive', () => {
    const file = '/m/.spacesync/config.json';
    const e = errorOf(() => loadConfig({ flags: { dir: '/m' }, env: {}, readFile: files({ [file]: JSON.stringify({ assets: { maxMiB: 0 } }) }) }));
    expect(e.message).toContain('assets.maxMiB');
  });

  it('layers file < environment < flags', () => {
    const file = configPath('/m');
    const read = files({ [file]: JSON.stringify({ link: LINK, maxDeletePercent: 10, apiKey: 'file-key' }) });
    expect(loadConfig({ flags: { dir: '/m' }, env: {}, readFile: read })).toMatchObject({ link: LINK, apiKey: 'file-key', maxDeletePercent: 10 });
    const envLink = LINK.replace('ABCDEF', 'ENVENV');
    expect(loadConfig({ flags: { dir: '/m' }, env: { SPACESYNC_LINK: envLink, SPACESYNC_API_KEY: 'env-key' }, readFile: read })).toMatchObject({
      link: envLink,
      apiKey: 'env-key',
    });
    const flagLink = LINK.replace('ABCDEF', 'FLAGFL');
    expect(loadConfig({ flags: { dir: '/m', link: flagLink, apiKey: 'flag-key' }, env: { SPACESYNC_LINK: envLink }, readFile: read })).toMatchObject({
      link: flagLink,
      apiKey: 'flag-key',
    });
  });

  it('names every invalid field, its value and the file, and hides secrets', () => {
    const file = configPath('/m');
    const read = files({
      [file]: JSON.stringify({
        link: 'https://x/links/SECRETID99/nope',
        maxDeletePercent: 120,
        poll: { minSeconds: 'fast' },
        colour: 'red',
        apiKey: 'zz-secret',
        git: { autoCommit: 'yes' },
      }),
    });
    const e = errorOf(() => loadConfig({ flags: { dir: '/m' }, env: {}, readFile: read }));
    expect(e.code).toBe('config_invalid');
    expect(e.message).toContain(file);
    expect(e.message).toMatch(/link: must be a connection link/);
    expect(e.message).toMatch(/maxDeletePercent: must be between 0 and 100 \(got 120\)/);
    expect(e.message).toMatch(/poll\.minSeconds: must be number \(got "fast"\)/);
    expect(e.message).toMatch(/unknown option "colour"/);
    expect(e.message).toMatch(/git\.autoCommit: must be boolean/);
    expect(e.message).not.toContain('SECRETID99');
  });

  it('explains a file that is not JSON', () => {
    const file = configPath('/m');
    const e = errorOf(() => loadConfig({ flags: { dir: '/m' }, env: {}, readFile: files({ [file]: '{ link: ' }) }));
    expect(e.code).toBe('config_invalid');
    expect(e.message).toMatch(/is not valid JSON/);
  });

  it('refuses a --config path that does not exist', () => {
    const e = errorOf(() => loadConfig({ flags: { config: '/nowhere.json' }, env: {}, readFile: files({}) }));
    expect(e.code).toBe('config_missing');
    expect(e.message).toContain('/nowhere.json');
  });

  it('rejects poll.maxSeconds below minSeconds', () => {
    const file = configPath('/m');
    const e = errorOf(() =>
      loadConfig({ flags: { dir: '/m' }, env: {}, readFile: files({ [file]: JSON.stringify({ poll: { minSeconds: 60, maxSeconds: 10 } }) }) }),
    );
    expect(e.message).toMatch(/poll: maxSeconds must be at least minSeconds/);
  });

  it('requireLink says how to provide a missing link', () => {
    const c = loadConfig({ cwd: '/m', env: {}, readFile: files({}) });
    const e = errorOf(() => requireLink(c));
    expect(e.code).toBe('config_missing');
    expect(e.message).toMatch(/--link URL, set SPACESYNC_LINK, or run `spacesync init/);
  });
});

describe('sync.config.example.json', () => {
  it('is a valid config whose values are the defaults', async () => {
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(new URL('../sync.config.example.json', import.meta.url), 'utf8');
    const read = (f: string) => (f === '/ex.json' ? text.replace('https://<host>/links/<LINK_ID>/api/v1', LINK) : undefined);
    const fromExample = loadConfig({ flags: { config: '/ex.json', dir: '/m' }, env: {}, readFile: read });
    const defaults = loadConfig({ flags: { dir: '/m', link: LINK }, env: {}, readFile: () => undefined });
    expect(fromExample).toEqual(defaults);
  });
});
