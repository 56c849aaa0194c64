// The command as it is installed: dist/cli/bin.js, built from the sources now (npm run build), so a
// benchmark of start-up or memory measures the compiled program, not the development entry's tsx.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let built = false;

export function builtCommand(): string {
  if (!built) {
    execFileSync(process.execPath, [path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(REPO, 'tsconfig.build.json')], {
      stdio: 'inherit',
    });
    built = true;
  }
  return path.join(REPO, 'dist', 'cli', 'bin.js');
}
