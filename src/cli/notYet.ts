// Commands whose implementation has not landed yet say so and fail, rather than pretend.
import { SpacesyncError } from '../errors.js';

export function notYet(command: string): never {
  throw new SpacesyncError('not_implemented', `\`spacesync ${command}\` is not available in this version yet.`);
}
