// FlameClusters in `validate` and `render` (loaded by those commands only): `validate` reports the
// workflow's own validation, and `render` prints the children the workflow would apply, in the order it
// applies them.

import { flameClusterSpecSchema } from '../../api/crd/flame-cluster-schema.ts';
import { isPlainObject } from '../../api/overrides.ts';
import { schemaIssues } from '../../api/schema/issues.ts';
import type { ValidationResult } from '../../api/types.ts';
import { validateFlameCluster } from '../../api/flame/validate.ts';
import type { FlameCluster } from '../../api/flame/types.ts';
import { renderFlameCluster } from '../../render/flame/render.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import type { ManifestDocument } from '../../present/documents.ts';
import type { OfflineHandlers } from '../kind-module.ts';

const issue = (w: { field: string; message: string }) => `${w.field}: ${w.message}`;

export const flameOffline: OfflineHandlers = {
  validate: (doc) => checkFlameCluster(doc),
  render(doc) {
    const warnings = checkFlameCluster(doc).warnings.map(issue);
    const rendered = renderFlameDocument(doc);
    if (rendered.problems.length > 0) return { objects: [], problems: rendered.problems, warnings };
    return { objects: rendered.objects, problems: [], warnings };
  },
};

/**
 * Errors are validateFlameCluster's (what the workflow and, in the same terms, the CRD refuse). Unknown
 * fields are warnings: the API server would drop them, which is rarely what a typo meant.
 */
export function checkFlameCluster(doc: ManifestDocument): ValidationResult {
  const result = validateFlameCluster(doc.object);
  const unknown = isPlainObject(doc.object.spec) ? schemaIssues(flameClusterSpecSchema, doc.object.spec, 'spec').warnings : [];
  return { errors: result.valid ? [] : result.errors, warnings: unknown };
}

export type FlameRender = { objects: AnyObject[]; problems: [] } | { objects: []; problems: string[] };

/**
 * The children as the controller would apply them: ConfigMap, session manager and object cache Services,
 * session manager Pod, executor Pods by index. The namespace defaults to "default", as with kubectl; an
 * offline object has no uid, so the ownerReferences carry none.
 */
export function renderFlameDocument(doc: ManifestDocument): FlameRender {
  const result = validateFlameCluster(doc.object);
  if (!result.valid) return { objects: [], problems: result.errors.map((e) => `${e.field}: ${e.message}`) };
  const cluster: FlameCluster = { ...result.cluster, metadata: { ...result.cluster.metadata, namespace: result.cluster.metadata.namespace || 'default' } };
  const children = renderFlameCluster(cluster);
  return { objects: [children.configMap, ...children.services, children.sessionManagerPod, ...children.executorPods], problems: [] };
}
