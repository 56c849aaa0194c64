// New ids look like the service's: upper-case UUIDs, opaque to every client.
import { randomUUID } from 'node:crypto';

export function newId(): string {
  return randomUUID().toUpperCase();
}
