// What the browser loads: the page (src/console/page/, shipped in the package beside dist/ and read
// from both the sources and the build, which sit at the same depth) and the front-end library from
// the package's own dependencies (preact, its hooks, htm), served under /vendor/ and named to the
// page by an import map. Nothing comes from outside the package, so the page works offline; no build
// step makes it. Read once at start: they are small (the whole page is some tens of KiB).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PAGE_DIR = fileURLToPath(new URL('../../src/console/page/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface Asset {
  body: Buffer;
  type: string;
}

export interface PageFiles {
  index: Asset;
  /** /app/<name>: the page's own modules and style. */
  app: Map<string, Asset>;
  /** /vendor/<name>: the front-end library. */
  vendor: Map<string, Asset>;
  /** The script-src sources the inline import map needs (its hash). */
  scriptHashes: string[];
}

const require = createRequire(import.meta.url);

/** The library files, by the name the import map gives them. */
function vendorFiles(): Record<string, string> {
  return {
    'preact.mjs': require.resolve('preact'),
    'hooks.mjs': require.resolve('preact/hooks'),
    // htm's package maps only its CommonJS build for require; its ES module sits beside it.
    'htm.mjs': path.join(path.dirname(require.resolve('htm')), 'htm.mjs'),
  };
}

const asset = (file: string): Asset => ({ body: readFileSync(file), type: TYPES[path.extname(file)] ?? 'application/octet-stream' });

export function loadPageFiles(dir = PAGE_DIR): PageFiles {
  const index = asset(path.join(dir, 'index.html'));
  const app = new Map<string, Asset>();
  for (const name of readdirSync(dir)) if (name !== 'index.html' && TYPES[path.extname(name)]) app.set(name, asset(path.join(dir, name)));
  const vendor = new Map(Object.entries(vendorFiles()).map(([name, file]) => [name, asset(file)]));
  const scripts = [...index.body.toString('utf8').matchAll(/<script type="importmap">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  const scriptHashes = scripts.map((s) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`);
  return { index, app, vendor, scriptHashes };
}

/** The page's Content-Security-Policy: its own files only, the import map by its hash, no inline code, no frames. */
export function contentSecurityPolicy(scriptHashes: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
