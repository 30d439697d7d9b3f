// Test helpers: ModelDeployments around the seed's example specs, and a readable dump of rendered
// objects for golden files.

import { stringify } from 'yaml';
import { canonicalize } from '../shared/canonical.ts';

// The seed's examples and the golden variants live in ../golden-inputs.ts (the conformance command renders them too).
export { example1, example2, example3, modelDeployment, withEverything } from '../golden-inputs.ts';

/** Rendered objects as tests read them: free-form JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests navigate rendered JSON by known paths
export type Json = any;

/** YAML of the canonical form: what golden files hold. */
export function goldenText(value: unknown): string {
  return stringify(canonicalize(value), { lineWidth: 0 });
}
