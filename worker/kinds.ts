import { asyncActorKind } from '../watcher/kinds/async-actor.ts';
import { kybernateCheckpointKind } from '../watcher/kinds/kybernate-checkpoint.ts';
import { kybernateRestoreKind } from '../watcher/kinds/kybernate-restore.ts';
import { kybernateWorkloadKind } from '../watcher/kinds/kybernate-workload.ts';
import { flameClusterKind } from '../watcher/kinds/flame-cluster.ts';
import { modelDeploymentKind } from '../watcher/kinds/model-deployment.ts';
import type { WatchedKind } from '../watcher/watched-kind.ts';

/**
 * Every kind the product reconciles. Adding one (docs/adding-a-kind.md): its API and CRD (api/), its
 * activities (activities/), its workflow exported from workflows/index.ts, its WatchedKind (watcher/kinds/),
 * and an entry here and in the core worker's activities.
 */
export const KINDS: readonly WatchedKind[] = [modelDeploymentKind, flameClusterKind, asyncActorKind, kybernateCheckpointKind, kybernateRestoreKind, kybernateWorkloadKind];
