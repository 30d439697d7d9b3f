// The registered modules (kinds/index.ts) as the offline commands see them: which kinds each takes, and
// its handlers, loaded only when `validate` or `render` runs.

import { KIND_MODULES } from '../kinds/index.ts';
import type { KindModule, OfflineHandlers, OfflineRegistration, OfflineSession } from '../kinds/kind-module.ts';

export interface OfflineModule {
  module: KindModule;
  registration: OfflineRegistration;
  /** The kinds it reconciles, which `validate` and `render` take. */
  rendered: readonly string[];
  /** Kinds only `validate` takes. */
  validateOnly: readonly string[];
  handlers: OfflineHandlers & { prepare?(session: OfflineSession): Promise<void> };
}

/** Every module with offline handlers, in registration order, its handlers loaded. */
export async function loadOfflineModules(): Promise<OfflineModule[]> {
  const offline = KIND_MODULES.flatMap((module) => (module.offline ? [{ module, registration: module.offline }] : []));
  return Promise.all(
    offline.map(async ({ module, registration }) => ({
      module,
      registration,
      rendered: module.kinds.map((k) => k.watched.kind),
      validateOnly: registration.validateOnly ?? [],
      handlers: await registration.load(),
    })),
  );
}

/** "A, B or C" (or "and"). */
export function sentenceList(items: readonly string[], last: 'or' | 'and'): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}`;
}
