import type { KubeConfig } from '@kubernetes/client-node';
import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import { ASYA_FIELD_MANAGER, ASYA_FINALIZER, ASYNC_ACTOR_KIND, ASYNC_ACTOR_PLURAL, ASYA_GROUP, ASYA_VERSION, KEDA_GROUP, KEDA_VERSION, MANAGED_BY_LABEL, RUNTIME_CONFIG_MAP, SCALED_OBJECT_PLURAL } from '../../api/asya/constants.ts';
import { modeOf } from '../../api/asya/mode.ts';
import type { AsyncActor } from '../../api/asya/types.ts';
import { validateAsyncActor } from '../../api/asya/validate.ts';
import type { ActorCondition, AsyaActivities, ReleaseOutcome } from '../../contract/asya-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { AnyObject, ResourceRef } from '../../kube/custom-objects.ts';
import { classifyKubeError, kubeCall, toActivityFailure } from '../../kube/errors.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { KindClient } from '../kind/kind-client.ts';
import type { ActorBroker } from './actor-broker.ts';
import { renderBindingScaledObject, renderInjection, renderUninjection } from '../../render/asya/injection.ts';
import { renderStandalone } from '../../render/asya/render.ts';
import { renderRuntimeConfigMap } from '../../render/asya/render-runtime-script.ts';
import { resolveTarget } from './resolve-target.ts';

/** Field manager of the actor's own status (the workload's intent is `asya`, as seed 002 names it). */
const STATUS_MANAGER = 'kubeairunway-asya';
const CONFIG_MAPS = { group: '', version: 'v1', plural: 'configmaps' };

export interface AsyaActivityDeps {
  kc: KubeConfig;
  /** The process's shared informers: the actor comes from their cache when that is new enough. */
  informers?: InformerSet;
  /** Queues on the broker; undefined when no broker is configured (queues are then not managed). */
  broker?: ActorBroker;
}

const ASYNC_ACTOR = { group: ASYA_GROUP, version: ASYA_VERSION, plural: ASYNC_ACTOR_PLURAL, kind: ASYNC_ACTOR_KIND };
const workloadResource = (kind: string, namespace: string, name: string): ResourceRef => ({ group: 'apps', version: 'v1', plural: kind === 'StatefulSet' ? 'statefulsets' : 'deployments', namespace, name });
const scaledObjectResource = (namespace: string, name: string): ResourceRef => ({ group: KEDA_GROUP, version: KEDA_VERSION, plural: SCALED_OBJECT_PLURAL, namespace, name });

export function createAsyaActivities(deps: AsyaActivityDeps): AsyaActivities {
  const actors = new KindClient<AsyncActor>(ASYNC_ACTOR, { kc: deps.kc, informers: deps.informers, fieldManager: STATUS_MANAGER });
  const { objects } = actors;

  /** The actor as validated (defaults filled); an invalid one never gets this far (the assessment stops it). */
  const valid = async (ref: ReadRef): Promise<AsyncActor> => {
    const checked = validateAsyncActor(await actors.require(ref));
    if (!checked.valid) throw actors.invalid(ref, checked.message);
    return { ...checked.actor, metadata: { ...checked.actor.metadata, uid: ref.uid } };
  };
  const apply = (resource: ResourceRef, body: AnyObject) => kubeCall(`apply ${resource.plural} ${resource.name}`, () => objects.apply(resource, body, ASYA_FIELD_MANAGER));

  /** Applies or removes the actor's ScaledObject; KEDA not installed is a condition, not a failure. */
  const scaling = async (actor: AsyncActor, scaledObject: AnyObject | undefined): Promise<ActorCondition> => {
    const resource = scaledObjectResource(actor.metadata.namespace!, actor.metadata.name);
    try {
      if (!scaledObject) {
        await objects.remove(resource);
        return { type: 'ScalingReady', status: 'True', reason: 'ScalingDisabled', message: 'spec.scaling.enabled is false: the replica count is fixed' };
      }
      await objects.apply(resource, scaledObject, ASYA_FIELD_MANAGER);
      const { minReplicas, maxReplicas, queueLength } = actor.spec.scaling;
      return { type: 'ScalingReady', status: 'True', reason: 'ScaledObjectApplied', message: `KEDA scales ${minReplicas}..${maxReplicas} replicas at ${queueLength} messages per replica` };
    } catch (err) {
      const failure = classifyKubeError(err);
      if (failure.type === 'NoKindMatch' || failure.type === 'NotFound') {
        return { type: 'ScalingReady', status: scaledObject ? 'False' : 'True', reason: 'KedaNotInstalled', message: 'KEDA (keda.sh ScaledObject) is not installed in the cluster' };
      }
      throw toActivityFailure(err, 'apply ScaledObject');
    }
  };

  return {
    async assessAsyncActor(ref) {
      const obj = await actors.read(ref);
      if (!obj) return { found: false };
      const m = obj.metadata;
      const seen = { found: true, generation: m.generation, resourceVersion: m.resourceVersion, mode: modeOf(obj.spec ?? {}), hasFinalizer: (m.finalizers ?? []).includes(ASYA_FINALIZER) };
      if (m.deletionTimestamp) return { ...seen, deleting: true, deletionTimestamp: m.deletionTimestamp };
      if (m.annotations?.[PAUSE_ANNOTATION] === 'true') return { ...seen, paused: true };
      const checked = validateAsyncActor(obj);
      if (!checked.valid) {
        actors.refuse(ref, checked.message);
        return { ...seen, invalid: checked.message };
      }
      // The finalizer before anything exists that deletion must release (a queue, an injection).
      if (!seen.hasFinalizer) await actors.setFinalizer(ref, ASYA_FINALIZER, true);
      return { ...seen, hasFinalizer: true };
    },

    async ensureActorQueues(ref) {
      const actor = await valid(ref);
      if (actor.spec.transport !== 'rabbitmq') return { ready: true, reason: 'NotManaged', message: `Transport '${actor.spec.transport}': its queues are managed outside this controller` };
      if (!deps.broker) return { ready: false, reason: 'BrokerNotConfigured', message: 'No RabbitMQ broker is configured for the controller: the queues are not declared' };
      return deps.broker.declare(actor.metadata.name);
    },

    async applyStandalone(ref) {
      const actor = await valid(ref);
      const children = renderStandalone(actor);
      const namespace = ref.namespace;
      await apply({ ...CONFIG_MAPS, namespace, name: children.runtimeConfigMap.metadata!.name! }, children.runtimeConfigMap);
      const kind = children.workload.kind ?? 'Deployment';
      const stored = await apply(workloadResource(kind, namespace, children.workload.metadata!.name!), children.workload);
      const status = (stored.status ?? {}) as { replicas?: number; readyReplicas?: number };
      const spec = (stored.spec ?? {}) as { replicas?: number };
      return {
        workload: `${kind}/${namespace}/${children.workload.metadata!.name}`,
        replicas: spec.replicas ?? status.replicas ?? 0,
        readyReplicas: status.readyReplicas ?? 0,
        scaling: await scaling(actor, children.scaledObject),
        changes: [],
      };
    },

    async resolveActorTarget(ref) {
      return resolveTarget(objects, deps.kc, deps.informers, await valid(ref));
    },

    async injectRuntime(ref, binding) {
      const actor = await valid(ref);
      const { target } = binding;
      // The injected runtime mounts the namespace's shared runtime script, as a standalone workload does.
      const script = renderRuntimeConfigMap(target.namespace);
      await apply({ ...CONFIG_MAPS, namespace: target.namespace, name: script.metadata!.name! }, script);
      const before = await kubeCall('read target', () => objects.get(workloadResource(target.kind, target.namespace, target.name)));
      const stored = await apply(workloadResource(target.kind, target.namespace, target.name), renderInjection(actor, target, binding.targetURL));
      const changed = before?.metadata?.resourceVersion !== stored.metadata?.resourceVersion;
      const scaled = actor.spec.scaling.enabled ? renderBindingScaledObject(actor, binding.scaleTarget) : undefined;
      return { changes: changed ? [`injected into ${target.kind}/${target.namespace}/${target.name}`] : [], scaling: await scaling(actor, scaled) };
    },

    async writeActorStatus(ref, input) {
      await actors.writeConditions(ref, await actors.require(ref), input, input.conditions);
    },

    async releaseActor(ref, injected): Promise<ReleaseOutcome> {
      const actor = await actors.read(ref, true);
      const remaining: string[] = [];
      const changes: string[] = [];
      // Un-inject: an apply of an empty intent releases exactly what field manager `asya` owns.
      let target = injected;
      if (!target && actor?.spec?.workloadRef) {
        const resolved = await resolveTarget(objects, deps.kc, deps.informers, actor).catch(() => undefined);
        target = resolved?.target;
      }
      if (target) {
        const resource = workloadResource(target.kind, target.namespace, target.name);
        try {
          const live = await objects.get(resource);
          // Every actor applies as `asya`: on a workload another actor manages (this one was refused
          // with AlreadyManaged), the empty intent would take out that actor's containers.
          const manager = live?.metadata?.labels?.[MANAGED_BY_LABEL] ?? live?.metadata?.annotations?.[MANAGED_BY_LABEL];
          if (live && (manager === undefined || manager === ref.name)) {
            await objects.apply(resource, renderUninjection(target), ASYA_FIELD_MANAGER);
            changes.push(`un-injected ${target.kind}/${target.namespace}/${target.name}`);
          }
        } catch (err) {
          remaining.push(`the injection in ${target.kind}/${target.namespace}/${target.name} (${classifyKubeError(err).message})`);
        }
      }
      try {
        if ((await objects.remove(scaledObjectResource(ref.namespace, ref.name))) !== 'absent') changes.push(`deleted ScaledObject ${ref.name}`);
      } catch (err) {
        if (!['NoKindMatch', 'NotFound'].includes(classifyKubeError(err).type)) remaining.push(`ScaledObject ${ref.name}`);
      }
      if (deps.broker && (actor?.spec?.transport ?? 'rabbitmq') === 'rabbitmq') {
        const deleted = await deps.broker.delete(ref.name);
        if (deleted.ok) changes.push(...deleted.changes);
        else remaining.push(deleted.message);
      }
      // The shared runtime ConfigMap goes with the namespace's last actor (the others' workloads mount it;
      // one being deleted too releases its workload now). Only ours: the label render-runtime-script.ts sets.
      try {
        const others = (await objects.list({ group: ASYA_GROUP, version: ASYA_VERSION, plural: ASYNC_ACTOR_PLURAL, namespace: ref.namespace })).filter(
          (a) => a.metadata?.uid !== ref.uid && !a.metadata?.deletionTimestamp,
        );
        const configMap = { ...CONFIG_MAPS, namespace: ref.namespace, name: RUNTIME_CONFIG_MAP };
        const live = others.length === 0 ? await objects.get(configMap) : undefined;
        if (live?.metadata?.labels?.['app.kubernetes.io/part-of'] === 'asya' && (await objects.remove(configMap)) !== 'absent') {
          changes.push(`deleted ConfigMap ${RUNTIME_CONFIG_MAP} (no other AsyncActor in ${ref.namespace} uses it)`);
        }
      } catch (err) {
        remaining.push(`ConfigMap ${RUNTIME_CONFIG_MAP} (${classifyKubeError(err).message})`);
      }
      if (changes.length > 0) actors.post(ref, { type: 'Normal', reason: 'Released', message: changes.join('; ') });
      return { remaining, changes };
    },

    async removeActorFinalizer(ref) {
      await actors.setFinalizer(ref, ASYA_FINALIZER, false);
    },

    async recordActorEvent(ref, event) {
      await actors.record(ref, event);
    },
  };
}
