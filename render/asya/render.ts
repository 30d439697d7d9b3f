// Everything a standalone AsyncActor runs on (research "Asya" 1a, as upstream's operator builds it): the
// Deployment or StatefulSet named after the actor, from `workload.template` with the user's
// `asya-runtime` container wired to the runtime script and the `asya-sidecar` appended; the KEDA
// ScaledObject when scaling is enabled; the shared `asya-runtime` ConfigMap.
//
// A pure function of the actor: the same actor gives byte-identical objects (the user's template is
// read with its keys sorted, so not even the order it was written in matters), so a pass that finds
// nothing to change writes nothing. The actor must have passed validateAsyncActor (which guarantees the
// one `asya-runtime` container and no reserved names).
//
// Choices where upstream leaves one:
// - With scaling enabled the workload has no `replicas`: KEDA's HPA owns the count, and applying ours
//   would undo every scale.
// - The user's probes on asya-runtime are kept; ours fill only those missing (as upstream).
// - A StatefulSet gets `serviceName: <actor>` (required by older API servers; no Service is created).

import {
  ACTOR_LABEL,
  MANAGED_BY_LABEL,
  MODE_ANNOTATION,
  MODE_ANNOTATION_VALUES,
  RUNTIME_CONTAINER,
  SOCKET_DIR,
} from '../../api/asya/constants.ts';
import type { AsyncActor, WorkloadSpec } from '../../api/asya/types.ts';
import { sortKeysDeep } from '../../api/crd/serialize.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { injectedVolumes, runtimeCommand, runtimeMounts, runtimeProbes, sidecarContainer, withEnv } from './render-containers.ts';
import { controllerReference, managedByLabels, namespaceOf } from './render-metadata.ts';
import { renderRuntimeConfigMap } from './render-runtime-script.ts';
import { renderScaledObject } from './render-scaled-object.ts';

type Obj = Record<string, unknown>;

export interface StandaloneChildren {
  /** The Deployment or StatefulSet, owned by the actor. */
  workload: AnyObject;
  /** The KEDA ScaledObject, owned by the actor; undefined when scaling is disabled (delete any that exists). */
  scaledObject: AnyObject | undefined;
  /** The shared `asya-runtime` ConfigMap, owned by no actor. */
  runtimeConfigMap: AnyObject;
}

export function renderStandalone(actor: AsyncActor): StandaloneChildren {
  const workload = actor.spec.workload;
  if (!workload) throw new Error(`AsyncActor ${actor.metadata.name} has no spec.workload: renderStandalone is for standalone actors`);
  return {
    workload: renderWorkload(actor, workload),
    scaledObject: actor.spec.scaling.enabled ? renderScaledObject(actor, { apiVersion: 'apps/v1', kind: workload.kind, name: actor.metadata.name }) : undefined,
    runtimeConfigMap: renderRuntimeConfigMap(actor.metadata.namespace),
  };
}

function renderWorkload(actor: AsyncActor, workload: WorkloadSpec): AnyObject {
  const name = actor.metadata.name;
  return {
    apiVersion: 'apps/v1',
    kind: workload.kind,
    metadata: {
      name,
      ...namespaceOf(actor),
      labels: managedByLabels(actor),
      annotations: { [MANAGED_BY_LABEL]: name, [MODE_ANNOTATION]: MODE_ANNOTATION_VALUES.Standalone },
      ownerReferences: [controllerReference(actor)],
    },
    spec: {
      ...(actor.spec.scaling.enabled ? {} : { replicas: workload.replicas }),
      ...(workload.kind === 'StatefulSet' ? { serviceName: name } : {}),
      selector: { matchLabels: { [ACTOR_LABEL]: name } },
      template: podTemplate(actor, workload),
    },
  };
}

/** The user's template with our pod label, the runtime wired, the sidecar appended and our volumes added. */
function podTemplate(actor: AsyncActor, workload: WorkloadSpec): Obj {
  const template = sortKeysDeep(workload.template) as Obj;
  const metadata = isObject(template.metadata) ? template.metadata : {};
  const labels = isObject(metadata.labels) ? metadata.labels : {};
  const spec = isObject(template.spec) ? template.spec : {};
  const containers = Array.isArray(spec.containers) ? (spec.containers as Obj[]) : [];
  const volumes = Array.isArray(spec.volumes) ? (spec.volumes as Obj[]) : [];
  return {
    ...template,
    // Ours last, so the selector always matches.
    metadata: { ...metadata, labels: { ...labels, [ACTOR_LABEL]: actor.metadata.name } },
    spec: {
      ...spec,
      containers: [...containers.map((c) => (c.name === RUNTIME_CONTAINER ? wireRuntime(c, workload.pythonExecutable) : c)), sidecarContainer(actor)],
      volumes: [...volumes, ...injectedVolumes()],
      terminationGracePeriodSeconds: actor.spec.timeout.gracefulShutdown,
    },
  };
}

/** The user's asya-runtime container, running the runtime script with the socket, scratch and script mounted. */
function wireRuntime(container: Obj, pythonExecutable: string): Obj {
  const env = Array.isArray(container.env) ? (container.env as Obj[]) : [];
  const mounts = Array.isArray(container.volumeMounts) ? (container.volumeMounts as Obj[]) : [];
  const missingProbes = Object.entries(runtimeProbes()).filter(([probe]) => container[probe] == null);
  return {
    ...container,
    command: runtimeCommand(pythonExecutable),
    env: withEnv(env, [{ name: 'ASYA_SOCKET_DIR', value: SOCKET_DIR }]),
    volumeMounts: [...mounts, ...runtimeMounts()],
    ...Object.fromEntries(missingProbes),
  };
}

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
