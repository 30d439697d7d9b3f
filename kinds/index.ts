// Every kind the product reconciles, as modules (kinds/kind-module.ts). A new kind adds its module here;
// outside its own folders it adds only its workflow's export to the bundle (workflows/index.ts) and its
// CRD's entry in api/crd/crds.ts (docs/adding-a-kind.md). The core worker, the watcher, the CLI, step
// outcomes and everything deploy/ takes from the kinds (npm run manifests) read this list.

import { asyaModule } from './asya/registration.ts';
import { flameModule } from './flame/registration.ts';
import type { KindModule, RegisteredKind } from './kind-module.ts';
import { kybernateModule } from './kybernate/registration.ts';
import { modelDeploymentModule } from './model-deployment/registration.ts';

export const KIND_MODULES: readonly KindModule[] = [modelDeploymentModule, flameModule, asyaModule, kybernateModule];

/** Every reconciled kind, in module order. */
export const REGISTERED_KINDS: readonly RegisteredKind[] = KIND_MODULES.flatMap((m) => m.kinds);
