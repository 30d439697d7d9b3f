// What a controller process is asked to run (any subset of the core worker, the provider workers and
// the watcher), and what it hands back once running.

import type { Logger } from '../observability/logger.ts';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Client, TLSConfig } from '@temporalio/client';
import type { ActivityInterceptorsFactory, NativeConnection, WorkerOptions } from '@temporalio/worker';
import type { GatewayDefaults } from '../activities/provider/gateway-lookup.ts';
import type { RunFlagValues } from '../kinds/kind-module.ts';
import type { InformerSet } from '../kube/informer-set.ts';
import type { ProviderDefinition } from '../providers/contract.ts';
import type { WatchedKind } from '../watcher/watched-kind.ts';
import type { ReconcileSettings } from '../workflows/settings.ts';
import type { TimePhase } from './start-phases.ts';

export interface ControllerOptions {
  kc: KubeConfig;
  temporalAddress: string;
  temporalNamespace: string;
  /** TLS (mTLS client certificate, CA, server name) and API key for the Temporal server; plain gRPC when omitted. */
  temporalConnection?: { tls?: TLSConfig | boolean; apiKey?: string };
  /** Which parts run in this process (a provider can be deployed alone). */
  core: boolean;
  watcher: boolean;
  providers: readonly ProviderDefinition[];
  /** The values of the kind modules' flags (`amqpUrl`), for their activities. */
  flags?: RunFlagValues;
  /** The core worker's sticky cache size; MAX_CACHED_WORKFLOWS when omitted. */
  maxCachedWorkflows?: number;
  /** The kinds this process's core and watcher reconcile; every registered kind when omitted. */
  kinds?: readonly WatchedKind[];
  settings?: Partial<ReconcileSettings>;
  /** The process's shared informers, when other parts of the process read them too: the controller starts the set, the caller stops it. A set of its own otherwise. */
  informers?: InformerSet;
  /** Namespaces the watcher watches; all when omitted. */
  namespaces?: readonly string[];
  /** Prebuilt workflow code: a bundle in memory (tests share one) or a bundle file. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  heartbeatMs?: number;
  /** The core marks a provider not ready once its heartbeat is older than this (PROVIDER_STALE_AFTER_MS unless told). */
  providerStaleAfterMs?: number;
  /** How often a provider looks for its CRD while it is not installed (its resource watch starts then). */
  providerCrdPollMs?: number;
  /**
   * How often a provider re-reads its CRD for its registration's `upstreamCRDVersion`, besides
   * reporting every change its watch of the CRD sees at once (worker/registration.ts); 5 s by default.
   */
  providerCrdCheckMs?: number;
  log?: (line: string) => void;
  /** The Temporal SDK's records (its core's lines among them), as JSON, when this process installs the SDK's runtime; WARN and up on standard output when omitted. */
  sdkLogger?: Logger;
  /** Routing settings (--gateway-* flags) for every provider's activities. */
  gateway?: GatewayDefaults;
  /** Activity interceptors per worker (metrics, step logs); `provider` is undefined for the core worker. */
  activityInterceptors?: (provider: string | undefined) => ActivityInterceptorsFactory[];
  /** Times each step of the start (worker/start-phases.ts); untimed when omitted. */
  timePhase?: TimePhase;
  /** How long each of its parts may take to stop before the stop goes on without it (DEFAULT_STOP_WITHIN_MS unless told). */
  stopWithinMs?: number;
}

export interface Controller {
  settings: ReconcileSettings;
  client: Client;
  /** Its connection to Temporal: the kinds' parts run their workers on it (worker/product.ts). */
  connection: NativeConnection;
  /** The process's informers (the caller's when it handed them in). */
  informers: InformerSet;
  /** Stops its parts in reverse of their start, each within a bound; providers mark themselves not ready first. */
  stop(): Promise<void>;
}
