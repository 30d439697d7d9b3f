// What a kind (or a group of kinds sharing an API group, a role and processes) registers with the
// product: one object, listed once in kinds/index.ts. Everything shared — the core worker's activities,
// the watcher, the CLI's validate/render/status, step metrics and logs, the ClusterRoles in deploy/core —
// iterates over that list, so adding a kind touches no shared file but that list.
//
// A registration is light to import: the CLI's `status` reaches it (cli/operator/kinds.ts), so what
// loads the Kubernetes or Temporal SDK clients (the activities) or the validators and renderers (the
// offline commands) is behind a dynamic import. The workflow bundle never imports a registration: the
// registration names its workflow and that workflow's file, and `npm run manifests` writes the bundle's
// entry (workflows/index.ts) from them; the name is checked against that entry by type.
//
// Beside its registration.ts, a module's folder holds kinds/<name>/user-roles.yaml: the editor and viewer
// roles for its users, gathered into deploy/core/users by `npm run manifests` (deploy/generated-files.ts).

import type { KubeConfig } from '@kubernetes/client-node';
import type { Client } from '@temporalio/client';
import type { ActivityInterceptorsFactory, NativeConnection } from '@temporalio/worker';
import type { CustomResourceDefinition } from '../api/crd/schema-types.ts';
import type { ValidationResult } from '../api/types.ts';
import type { ManifestDocument } from '../present/documents.ts';
import type { CliIO } from '../cli/io.ts';
import type { KindPresentation } from '../cli/operator/kind-presentation.ts';
import type { InformerSet } from '../kube/informer-set.ts';
import type { StepOutcomeReader } from '../observability/step-outcome.ts';
import type { WatchedKind } from '../watcher/watched-kind.ts';
import type { ClusterRoleSpec } from './rbac.ts';


/** One reconciled kind: what watches it, which workflow runs it, its CRD and how the CLI shows it. */
export interface RegisteredKind {
  /** The watcher's and the core's view of the kind (watcher/kinds/), with the workflow that reconciles one object (`workflowType`). */
  watched: WatchedKind;
  /** The file under workflows/ that exports it: the bundle's entry is written from these (kinds/workflow-entry.ts). */
  workflowModule: string;
  /** Its CustomResourceDefinition, declared beside its schema in api/; `npm run crds` writes it into deploy/crds/. */
  crd: CustomResourceDefinition;
  /** What the operator commands say of it beyond the defaults (cli/operator/kind-presentation.ts). */
  presentation?: Partial<KindPresentation>;
}

/** What the core worker hands every kind's activities factory. */
export interface ActivityContext {
  kc: KubeConfig;
  /** The process's shared informers: reads come from their caches. */
  informers?: InformerSet;
  /** Providers whose workers run in this process. */
  inProcessProviders: readonly string[];
  /** The values of the modules' flags (`amqpUrl`: what AsyncActors' activities connect to); none given when omitted. */
  flags?: RunFlagValues;
  /** Closes what the factory opened (a broker connection) once the worker has stopped; nothing to close when omitted. */
  onStop?(close: () => Promise<void>): void;
}

/**
 * A flag of `kubeairunway run` a module reads (its parts, its activities): the command offers every
 * module's flags as declared, so a kind with flags of its own edits no shared file.
 */
export interface RunFlag {
  /** As the command line spells it: `--activator-port <port>`, or `--node` for a switch. */
  flag: string;
  description: string;
  /** `port` is checked (0 to 65535) and handed on as a number; `text` as given. A switch has none. */
  value?: 'port' | 'text';
  /** Read from this environment variable when the flag is not given (a Deployment's or a DaemonSet's env). */
  env?: string;
  /** The value when neither the flag nor the environment gives one. */
  default?: string;
}

/** The modules' flags as given, by their camel-case names (`--activator-port` → `activatorPort`); a `port` is a number. */
export type RunFlagValues = Readonly<Record<string, string | number | boolean | undefined>>;

/** What the offline commands (`validate`, `render`) do with a manifest of one of the module's kinds. */
export interface OfflineHandlers {
  validate(doc: ManifestDocument): ValidationResult;
  /** The objects the controller would create, or why not (stderr lines are the caller's). */
  render(doc: ManifestDocument, session: OfflineSession): OfflineRender;
}

export type OfflineRender =
  | { objects: unknown[]; problems: []; warnings: string[]; /** Said on stderr though it renders (a kind that creates nothing). */ note?: string }
  | { objects: []; problems: string[]; warnings: string[] };

/** Everything one `render` run knows: every input document, the options, and what modules rendered earlier left for later ones. */
export interface OfflineSession {
  io: CliIO;
  docs: readonly ManifestDocument[];
  options: { provider?: string; apiVersion?: readonly string[]; providerConfig?: readonly string[] };
  /** Facts a module's render leaves for modules rendered after it (ModelDeployments for AsyncActors bound to them), by name. */
  facts: Map<string, unknown[]>;
  /** Whatever a module loads once per run (the provider catalog), by name. */
  shared: Map<string, unknown>;
}

export interface OfflineRegistration {
  /** Kinds `validate` takes besides the module's reconciled kinds, which `render` does not (InferenceProviderConfig). */
  validateOnly?: readonly string[];
  /** Kinds `render` reads but does not print, and when: "Deployments or StatefulSets next to AsyncActors". */
  companions?: { kinds: readonly string[]; next: string; phrase: string };
  /** Rendered after modules without it (reads their facts). */
  late?: boolean;
  /** Loaded only by the offline commands: validators, renderers and the CEL engine stay out of `status`. */
  load(): Promise<OfflineHandlers & { /** Once per `render` run, before the manifests are read (the provider catalog). */ prepare?(session: OfflineSession): Promise<void> }>;
}

/**
 * A process of the module's own beyond the core worker and the watcher (a worker on a task queue of its
 * own, a server). It runs in the controller's process, after the controller, when the module's flags ask
 * for it: `kubeairunway run` (and `dev`, and the tests) hand the flags' values to the composition root
 * (worker/product.ts), which starts every part they configure and stops it before the controller.
 */
export interface KindPart {
  name: string;
  /** What it is and which flag of `kubeairunway run` starts it. */
  about: string;
  /** Its entry (loaded only where it runs). */
  module: string;
  /**
   * The switch among the module's flags (camel-case) that names it among the parts `run` starts, as
   * `--core` does: it is then a process of its own (a DaemonSet's), never in the default set, and the
   * controller runs for it alone. Without one it runs beside the controller whenever its flags ask for it.
   */
  namedBy?: string;
  /**
   * How to start it as the flags ask, or undefined when they do not ask for it. Throws, naming the flag,
   * on a value it cannot use: `run` calls it before anything starts.
   */
  configure(flags: RunFlagValues): StartPart | undefined;
}

/** Starts a configured part; it loads its entry only then. */
export type StartPart = (ctx: PartContext) => Promise<RunningPart>;

/** What a part gets from the controller it runs beside. */
export interface PartContext {
  kc: KubeConfig;
  /** The controller's connection to Temporal: a worker of the part's own shares it. */
  connection: NativeConnection;
  client: Client;
  temporalNamespace: string;
  taskQueuePrefix: string;
  /** The process's informers: what the part reads comes from the caches the controller fills. */
  informers: InformerSet;
  /** The namespaces the controller serves; all when omitted. */
  namespaces?: readonly string[];
  /** Around every activity of a worker the part runs (step metrics and logs). */
  activityInterceptors?: ActivityInterceptorsFactory[];
  log: (line: string) => void;
}

export interface RunningPart {
  /** Where it serves, for a part that serves HTTP (the activator): logged and handed to the caller. */
  url?: string;
  stop(): Promise<void>;
}

export interface KindModule {
  /** The module's folder under kinds/. */
  name: string;
  kinds: readonly RegisteredKind[];
  /** CRDs of the module that are no reconciled kind (InferenceProviderConfig), written beside the kinds' by `npm run crds`. */
  extraCrds?: readonly CustomResourceDefinition[];
  /** The activities it serves on the core worker, by activity type. */
  activities(ctx: ActivityContext): Promise<object>;
  /** Activity types whose results mean something for metrics and logs (observability/step-outcome.ts). */
  stepOutcomes?: Readonly<Record<string, StepOutcomeReader>>;
  offline?: OfflineRegistration;
  /** Exactly what its activities, watches and parts call, rule by rule with the reason (deploy/core/<role.folder>/cluster-role.yaml). */
  role: ClusterRoleSpec;
  /** The flags of `kubeairunway run` its parts and activities read. */
  flags?: readonly RunFlag[];
  parts?: readonly KindPart[];
}
