import { ApplicationFailure } from '@temporalio/common';
import { ASYA_FIELD_MANAGER, ASYNC_ACTOR_PLURAL, ASYA_GROUP, ASYA_VERSION, MANAGED_BY_LABEL, RUNTIME_CONFIG_MAP } from '../../api/asya/constants.ts';
import type { AsyncActor } from '../../api/asya/types.ts';
import type { AsyaActivities, ReleaseOutcome, TargetRef } from '../../contract/asya-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import { classifyKubeError } from '../../kube/errors.ts';
import { renderUninjection } from '../../render/asya/injection.ts';
import { CONFIG_MAPS, scaledObjectResource, workloadResource, type AsyaClients } from './asya-clients.ts';
import { resolveTarget } from './resolve-target.ts';
import { messageOf } from '../../contract/failure-types.ts';

/**
 * Whether resolving failed because what the workloadRef names cannot be there (the object, or its kind's
 * CRD, is gone): then there is no injection to release. The reads' failures are kubeCall's, already
 * classified: their type is read back; an error of the API client itself is classified here.
 */
function targetGone(err: unknown): boolean {
  const type = err instanceof ApplicationFailure ? err.type : classifyKubeError(err).failureType;
  return type === 'KubeNotFound' || type === 'KubeNoKindMatch';
}

/**
 * The injection's target: as the workflow recorded it, else resolved again from the actor's workloadRef.
 * A resolution that fails otherwise (the API server unreachable) may hide an injection: it stays
 * `remaining`, so the bounded cleanup tries again rather than reporting it released.
 */
async function injectedTarget(asya: AsyaClients, actor: AsyncActor | undefined, injected: TargetRef | undefined, release: ReleaseOutcome): Promise<TargetRef | undefined> {
  if (injected || !actor?.spec?.workloadRef) return injected;
  try {
    return (await resolveTarget(asya.objects, asya.kc, asya.informers, actor)).target;
  } catch (err) {
    if (!targetGone(err)) release.remaining.push(`the injection into ${actor.spec.workloadRef.kind} ${actor.spec.workloadRef.name} (not resolved: ${messageOf(err)})`);
    return undefined;
  }
}

/** Un-injects: an apply of an empty intent releases exactly what field manager `asya` owns. */
async function releaseInjection(asya: AsyaClients, ref: ReadRef, target: TargetRef, release: ReleaseOutcome): Promise<void> {
  const resource = workloadResource(target.kind, target.namespace, target.name);
  try {
    const live = await asya.objects.get(resource);
    // Every actor applies as `asya`: on a workload another actor manages (this one was refused
    // with AlreadyManaged), the empty intent would take out that actor's containers.
    const manager = live?.metadata?.labels?.[MANAGED_BY_LABEL] ?? live?.metadata?.annotations?.[MANAGED_BY_LABEL];
    if (live && (manager === undefined || manager === ref.name)) {
      await asya.objects.apply(resource, renderUninjection(target), ASYA_FIELD_MANAGER);
      release.changes.push(`un-injected ${target.kind}/${target.namespace}/${target.name}`);
    }
  } catch (err) {
    release.remaining.push(`the injection in ${target.kind}/${target.namespace}/${target.name} (${classifyKubeError(err).message})`);
  }
}

/** The actor's ScaledObject; KEDA not installed means there is none. */
async function releaseScaledObject(asya: AsyaClients, ref: ReadRef, release: ReleaseOutcome): Promise<void> {
  try {
    if ((await asya.objects.remove(scaledObjectResource(ref.namespace, ref.name))) !== 'absent') release.changes.push(`deleted ScaledObject ${ref.name}`);
  } catch (err) {
    if (!['NoKindMatch', 'NotFound'].includes(classifyKubeError(err).type)) release.remaining.push(`ScaledObject ${ref.name}`);
  }
}

/** The actor's queues, when this controller manages them (a broker configured, transport RabbitMQ). */
async function releaseQueues(asya: AsyaClients, ref: ReadRef, actor: AsyncActor | undefined, release: ReleaseOutcome): Promise<void> {
  if (!asya.broker || (actor?.spec?.transport ?? 'rabbitmq') !== 'rabbitmq') return;
  const deleted = await asya.broker.delete(ref.name);
  if (deleted.ok) release.changes.push(...deleted.changes);
  else release.remaining.push(deleted.message);
}

/**
 * The shared runtime ConfigMap goes with the namespace's last actor (the others' workloads mount it;
 * one being deleted too releases its workload now). Only ours: the label render-runtime-script.ts sets.
 */
async function releaseRuntimeConfigMap(asya: AsyaClients, ref: ReadRef, release: ReleaseOutcome): Promise<void> {
  try {
    const actors = await asya.objects.list({ group: ASYA_GROUP, version: ASYA_VERSION, plural: ASYNC_ACTOR_PLURAL, namespace: ref.namespace });
    const others = actors.filter((a) => a.metadata?.uid !== ref.uid && !a.metadata?.deletionTimestamp);
    const configMap = { ...CONFIG_MAPS, namespace: ref.namespace, name: RUNTIME_CONFIG_MAP };
    const live = others.length === 0 ? await asya.objects.get(configMap) : undefined;
    if (live?.metadata?.labels?.['app.kubernetes.io/part-of'] === 'asya' && (await asya.objects.remove(configMap)) !== 'absent') {
      release.changes.push(`deleted ConfigMap ${RUNTIME_CONFIG_MAP} (no other AsyncActor in ${ref.namespace} uses it)`);
    }
  } catch (err) {
    release.remaining.push(`ConfigMap ${RUNTIME_CONFIG_MAP} (${classifyKubeError(err).message})`);
  }
}

/** Releases what the actor made, each part on its own: what could not be released yet is `remaining`, never a failure. */
export function releaseActor(asya: AsyaClients): AsyaActivities['releaseActor'] {
  return async function releaseActor(ref, injected) {
    const actor = await asya.actors.read(ref, true);
    const release: ReleaseOutcome = { remaining: [], changes: [] };
    const target = await injectedTarget(asya, actor, injected, release);
    if (target) await releaseInjection(asya, ref, target, release);
    await releaseScaledObject(asya, ref, release);
    await releaseQueues(asya, ref, actor, release);
    await releaseRuntimeConfigMap(asya, ref, release);
    if (release.changes.length > 0) asya.actors.post(ref, { type: 'Normal', reason: 'Released', message: release.changes.join('; ') });
    return { remaining: release.remaining, changes: release.changes };
  };
}
