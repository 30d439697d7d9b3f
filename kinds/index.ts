// Every kind the product reconciles, as modules (kinds/kind-module.ts). The one line a new kind adds
// outside its own folders is its module here (docs/adding-a-kind.md); the core worker, the watcher, the
// CLI, step outcomes and the ClusterRoles in deploy/core all read this list.

import { asyaModule } from './asya/registration.ts';
import { flameModule } from './flame/registration.ts';
import type { KindModule, RegisteredKind } from './kind-module.ts';
import { kybernateModule } from './kybernate/registration.ts';
import { modelDeploymentModule } from './model-deployment/registration.ts';

export const KIND_MODULES: readonly KindModule[] = [modelDeploymentModule, flameModule, asyaModule, kybernateModule];

/** Every reconciled kind, in module order. */
export const REGISTERED_KINDS: readonly RegisteredKind[] = KIND_MODULES.flatMap((m) => m.kinds);
