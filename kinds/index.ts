// Every kind the product reconciles, as modules (kinds/kind-module.ts). A new kind adds its module here:
// the one line it adds outside its own folders (docs/adding-a-kind.md). The core worker, the watcher, the
// CLI, step outcomes and everything generated from the kinds read this list: the CRD files
// (`npm run crds`), and deploy/'s roles and lists with the workflow bundle's entry, workflows/index.ts
// (`npm run manifests`). kinds/registry.test.ts fails while a kind is half-registered or a file is stale.

import { asyaModule } from './asya/registration.ts';
import { flameModule } from './flame/registration.ts';
import type { StepOutcomeReaders } from '../observability/step-outcome.ts';
import type { KindModule, RegisteredKind } from './kind-module.ts';
import { kybernateModule } from './kybernate/registration.ts';
import { modelDeploymentModule } from './model-deployment/registration.ts';

export const KIND_MODULES: readonly KindModule[] = [modelDeploymentModule, flameModule, asyaModule, kybernateModule];

/** Every reconciled kind, in module order. */
export const REGISTERED_KINDS: readonly RegisteredKind[] = KIND_MODULES.flatMap((m) => m.kinds);

/** Every module's step outcome readers by activity type, for the step metrics and logs and `kar history` (a test checks that no two modules read the same one). */
export const STEP_OUTCOMES: StepOutcomeReaders = new Map(KIND_MODULES.flatMap((m) => Object.entries(m.stepOutcomes ?? {})));
