// The typed error for markdown the service would refuse, naming the line.
import { SpacesyncError } from '../errors.js';

export function dialectError(line: number, problem: string, fix: string): SpacesyncError {
  return new SpacesyncError('dialect_input', `Markdown line ${line}: ${problem}. ${fix}`, { details: { line } });
}
