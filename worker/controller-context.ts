// What the controller's parts share: its options, the settings and caches every part reads, and the
// Temporal connection the first part opens for the parts after it. Made before any part starts.

import type { Client } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import { InformerSet } from '../kube/informer-set.ts';
import type { WatchedKind } from '../watcher/watched-kind.ts';
import { DEFAULT_SETTINGS, type ReconcileSettings } from '../workflows/settings.ts';
import type { ControllerOptions } from './controller-options.ts';
import { KINDS } from './kinds.ts';
import { Later, type PartsOptions } from './parts.ts';
import { plainRecords } from './product-log.ts';
import { UNTIMED } from './start-phases.ts';

export interface TemporalClients {
  connection: NativeConnection;
  client: Client;
}

export interface ControllerContext {
  opts: ControllerOptions;
  settings: ReconcileSettings;
  /** The kinds this process's core and watcher reconcile. */
  kinds: readonly WatchedKind[];
  informers: InformerSet;
  /** Whether the informers are the controller's own (it stops them) or the caller's (the caller does). */
  ownInformers: boolean;
  temporal: Later<TemporalClients>;
  log: (line: string) => void;
  /** How its parts are timed at start and bounded at stop; a stop's overrun or failure is a log line. */
  parts: PartsOptions;
}

export function controllerContext(opts: ControllerOptions): ControllerContext {
  const log = opts.log ?? (() => {});
  return {
    opts,
    settings: { ...DEFAULT_SETTINGS, ...opts.settings },
    kinds: opts.kinds ?? KINDS,
    // One cache per process, as controller-runtime's manager has: the watcher's handlers and every
    // activity's reads share each collection's single list and watch.
    informers: opts.informers ?? new InformerSet(opts.kc, log),
    ownInformers: opts.informers === undefined,
    temporal: new Later<TemporalClients>('the Temporal connection'),
    log,
    parts: { log: plainRecords(log, undefined), timePhase: opts.timePhase ?? UNTIMED, stopWithinMs: opts.stopWithinMs },
  };
}
