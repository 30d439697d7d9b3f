// KybernateCheckpoint, KybernateRestore and KybernateWorkload manifests in the offline commands:
// `validate` reports the workflows' own validation, and `render` prints the pod the workflow would
// create — a restore's restore pod, a workload's pod — with the same renderers the workflows use. A
// checkpoint creates no object (it acts on a pod that exists): render says so on stderr.
//
// Offline there is no cluster to read a restore's checkpoint or the checkpointed pod in, so they are
// what the other `-f` documents say (a KybernateCheckpoint, with its status once it completed, and a
// Pod); without them the restore pod is rendered from what the restore itself names, said so on stderr.

import { checkpointSpecSchema } from '../../api/crd/kybernate-checkpoint-schema.ts';
import { restoreSpecSchema } from '../../api/crd/kybernate-restore-schema.ts';
import { workloadSpecSchema } from '../../api/crd/kybernate-workload-schema.ts';
import type { JSONSchemaProps } from '../../api/crd/schema-types.ts';
import { CHECKPOINT_KIND, RESTORE_KIND, WORKLOAD_KIND } from '../../api/kybernate/constants.ts';
import type { KybernateCheckpoint, KybernateRestore } from '../../api/kybernate/types.ts';
import { validateKybernateCheckpoint, validateKybernateRestore, validateKybernateWorkload, type KybernateIssue } from '../../api/kybernate/validate.ts';
import { isPlainObject } from '../../api/overrides.ts';
import { schemaIssues } from '../../api/schema/issues.ts';
import type { ValidationResult } from '../../api/types.ts';
import { renderRestorePod, renderWorkloadPod, type RestoreSource } from '../../render/kybernate/render.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { describeObject, type ManifestDocument } from '../../present/documents.ts';

/** The kinds read here, by the validation that applies to them. */
const VALIDATORS: Readonly<Record<string, { validate: (obj: unknown) => { valid: true } | { valid: false; errors: KybernateIssue[] }; spec: JSONSchemaProps }>> = {
  [CHECKPOINT_KIND]: { validate: validateKybernateCheckpoint, spec: checkpointSpecSchema },
  [RESTORE_KIND]: { validate: validateKybernateRestore, spec: restoreSpecSchema },
  [WORKLOAD_KIND]: { validate: validateKybernateWorkload, spec: workloadSpecSchema },
};

export const KYBERNATE_DOCUMENT_KINDS: readonly string[] = Object.keys(VALIDATORS);

/** Kinds a KybernateRestore may be rendered against when given with -f: the checkpointed pod (read, not printed). */
export const RESTORE_SOURCE_KINDS: readonly string[] = ['Pod'];

/** What of the other -f documents a restore may need: its checkpoint and the checkpointed pod. */
export interface KybernateOfflineContext {
  checkpoints: readonly ManifestDocument[];
  pods: readonly ManifestDocument[];
}

/**
 * What a document renders to: objects, or the problems that stop it. `warnings` say what had to be
 * assumed offline; `nothing` says why a kind that creates no objects printed none.
 */
export type KybernateRender =
  | { objects: AnyObject[]; problems: []; warnings: string[]; nothing?: string }
  | { objects: []; problems: string[]; warnings: [] };

/**
 * Errors are the validator's (what the workflow and, in the same terms, the CRD refuse). Unknown fields
 * are warnings: the API server would drop them, which is rarely what a typo meant.
 */
export function checkKybernate(doc: ManifestDocument): ValidationResult {
  const kind = VALIDATORS[String(doc.object.kind)];
  if (!kind) throw new Error(`checkKybernate: ${describeObject(doc)} is not a Kybernate kind`);
  const result = kind.validate(withNamespace(doc.object));
  const unknown = isPlainObject(doc.object.spec) ? schemaIssues(kind.spec, doc.object.spec, 'spec').warnings : [];
  return { errors: result.valid ? [] : result.errors, warnings: unknown };
}

export function renderKybernateDocument(doc: ManifestDocument, context: KybernateOfflineContext): KybernateRender {
  const object = withNamespace(doc.object);
  switch (doc.object.kind) {
    case CHECKPOINT_KIND: {
      const result = validateKybernateCheckpoint(object);
      if (!result.valid) return failed(result.errors);
      const { metadata, spec } = result.checkpoint;
      return { objects: [], problems: [], warnings: [], nothing: `creates no objects: it checkpoints pod ${metadata.namespace}/${spec.podName} on its node; nothing to render` };
    }
    case RESTORE_KIND: {
      const result = validateKybernateRestore(object);
      if (!result.valid) return failed(result.errors);
      const { source, warnings } = restoreSource(result.restore, context);
      return { objects: [renderRestorePod(result.restore, source)], problems: [], warnings };
    }
    case WORKLOAD_KIND: {
      const result = validateKybernateWorkload(object);
      if (!result.valid) return failed(result.errors);
      return { objects: [renderWorkloadPod(result.workload)], problems: [], warnings: [] };
    }
    default:
      throw new Error(`renderKybernateDocument: ${describeObject(doc)} is not a Kybernate kind`);
  }
}

/**
 * The restore's source as far as the documents tell: a checkpointImage is complete; a checkpointRef
 * needs the KybernateCheckpoint (its image once Completed, its container, its node) and its pod.
 */
function restoreSource(restore: KybernateRestore, context: KybernateOfflineContext): { source: RestoreSource; warnings: string[] } {
  const { checkpointImage, checkpointRef } = restore.spec;
  if (checkpointImage !== undefined || checkpointRef === undefined) return { source: { checkpointImage: checkpointImage ?? '' }, warnings: [] };
  const namespace = restore.metadata.namespace!;
  const checkpoint = findCheckpoint(context.checkpoints, namespace, checkpointRef);
  if (!checkpoint) {
    return {
      source: { checkpointImage: checkpointRef },
      warnings: [
        `KybernateCheckpoint ${namespace}/${checkpointRef} is read in the cluster: rendered with its name in place of its checkpoint image and without its pod (pass the checkpoint, completed, and its pod with -f to render from them)`,
      ],
    };
  }
  const warnings: string[] = [];
  const image = checkpoint.status?.phase === 'Completed' ? checkpoint.status.checkpointRef : undefined;
  if (!image) warnings.push(`KybernateCheckpoint ${namespace}/${checkpointRef} has not completed (no status.checkpointRef): rendered with its name in place of its checkpoint image`);
  const pod = context.pods.map((d) => d.object as AnyObject).find((p) => (p.metadata?.namespace || 'default') === namespace && p.metadata?.name === checkpoint.spec.podName);
  if (!pod) warnings.push(`pod ${namespace}/${checkpoint.spec.podName} (the checkpointed one) is read in the cluster: rendered with one container running the checkpoint image (pass the pod with -f to render from its spec)`);
  const nodeName = checkpoint.spec.storage.type === 'containerd' ? checkpoint.status?.nodeName : undefined;
  return {
    source: {
      checkpointImage: image ?? checkpointRef,
      ...(pod ? { pod } : {}),
      ...(checkpoint.spec.containerName ? { containerName: checkpoint.spec.containerName } : {}),
      ...(nodeName ? { nodeName } : {}),
    },
    warnings,
  };
}

function findCheckpoint(docs: readonly ManifestDocument[], namespace: string, name: string): KybernateCheckpoint | undefined {
  for (const doc of docs) {
    const result = validateKybernateCheckpoint(withNamespace(doc.object));
    if (result.valid && result.checkpoint.metadata.namespace === namespace && result.checkpoint.metadata.name === name) return result.checkpoint;
  }
  return undefined;
}

function failed(errors: readonly KybernateIssue[]): KybernateRender {
  return { objects: [], problems: errors.map((e) => `${e.field}: ${e.message}`), warnings: [] };
}

/** Namespaced objects without a namespace land in "default", as with kubectl. */
function withNamespace(object: Record<string, unknown>): Record<string, unknown> {
  const metadata = isPlainObject(object.metadata) ? object.metadata : undefined;
  if (!metadata || (typeof metadata.namespace === 'string' && metadata.namespace)) return object;
  return { ...object, metadata: { ...metadata, namespace: 'default' } };
}
