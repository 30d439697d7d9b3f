import { REGISTERED_KINDS } from '../kinds/index.ts';
import type { WatchedKind } from '../watcher/watched-kind.ts';

/** Every kind the product reconciles, as the watcher and the core see them: from the registered modules (kinds/index.ts). */
export const KINDS: readonly WatchedKind[] = REGISTERED_KINDS.map((k) => k.watched);
