import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout this CLI runs from (examples and CRD files are read from it). */
export function repoRoot(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..');
}
