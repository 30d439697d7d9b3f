// The CRD files of deploy/crds/, taken from the registered modules (kinds/index.ts): every kind's CRD
// and the module's extra ones (InferenceProviderConfig), in module order. Each CRD is declared beside its
// kind's schema in api/; no list of them is kept by hand, so a kind's CRD is written when its module is
// registered and only then.

import { crdFileName } from '../api/crd/crd-file-name.ts';
import type { CustomResourceDefinition } from '../api/crd/schema-types.ts';
import { KIND_MODULES } from '../kinds/index.ts';
import type { KindModule } from '../kinds/kind-module.ts';

/** Every registered CRD with its file name under deploy/crds/. */
export function crdFiles(modules: readonly KindModule[] = KIND_MODULES): { file: string; crd: CustomResourceDefinition }[] {
  return modules.flatMap((m) => [...m.kinds.map((k) => k.crd), ...(m.extraCrds ?? [])]).map((crd) => ({ file: crdFileName(crd), crd }));
}
