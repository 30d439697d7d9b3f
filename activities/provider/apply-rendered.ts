import { MANAGED_SELECTOR } from '../../api/constants.ts';
import { events } from '../../api/messages.ts';
import type { ModelDeployment } from '../../api/types.ts';
import { activityFailure, messageOf } from '../../contract/failure-types.ts';
import type { ObjectRef } from '../../contract/object-ref.ts';
import type { ApplyOutcome } from '../../contract/provider-activities.ts';
import type { AnyObject, ResourceRef } from '../../kube/custom-objects.ts';
import { kubeCall, refusalOf, toActivityFailure } from '../../kube/errors.ts';
import type { KubernetesObject, UnifiedCondition } from '../../providers/contract.ts';
import { CLAIM_OWNED_KIND } from '../../providers/shared/storage.ts';
import { involved } from '../deployment-ref.ts';
import { APPLIED_STATE_ANNOTATION, RENDER_HASH_ANNOTATION, renderHash, stateHash } from './applied-state.ts';
import { deleteOwnedObjects } from './cleanup.ts';
import { pruneGatewayObjects } from './gateway-observe.ts';
import { changedIdentityFields, IDENTITY_ANNOTATION } from './identity.ts';
import type { ProviderClients } from './provider-clients.ts';
import { apiRefusal, schemaRefusal } from './refusal.ts';
import { routingAskedFor, type Rendered } from './render-for.ts';
import { gatewayNotReady } from '../../providers/shared/gateway-status.ts';

/** An apply's outcome, the primary resource as stored, and the write of its applied-state annotation still under way. */
export interface Applied {
  outcome: ApplyOutcome;
  stored: AnyObject | undefined;
  recording?: Promise<unknown>;
  /** Why the route or pool could not be applied (GatewayReady=False); the provider's own objects were. */
  routingProblem?: UnifiedCondition;
}

/** The cached resource proves nothing but this: it was rendered from the same spec and nobody has edited it since. */
function isUnchanged(obj: AnyObject, hash: string): boolean {
  const annotations = obj.metadata?.annotations ?? {};
  return !obj.metadata?.deletionTimestamp && annotations[RENDER_HASH_ANNOTATION] === hash && annotations[APPLIED_STATE_ANNOTATION] === stateHash(obj);
}

/**
 * Server-side apply of one rendered object; a refusal by the API server because of the object
 * (kube/errors.ts `refused`) comes back as its message instead of a failure: retrying cannot help.
 */
async function applyOne(p: ProviderClients, obj: KubernetesObject, body: AnyObject): Promise<{ applied: AnyObject } | { refusal: string }> {
  try {
    return { applied: await p.objects.apply(p.refOf(obj), body, p.fieldManager) };
  } catch (err) {
    const refused = refusalOf(err);
    if (refused) return { refusal: apiRefusal(obj, refused.detail) };
    throw toActivityFailure(err, `apply ${obj.kind}`);
  }
}

/**
 * The primary resource as stored. The cached one only ever proves "unchanged"; any other verdict is
 * made on a fresh read. A filled cache without the resource, and a status that names none, agree that it
 * was never created: no read is needed before creating it (server-side apply would not duplicate it anyway).
 */
async function currentResource(p: ProviderClients, md: ModelDeployment, primary: KubernetesObject, primaryRef: ResourceRef, hash: string): Promise<AnyObject | undefined> {
  const cached = p.deps.informers?.cached(primaryRef, { labelSelector: MANAGED_SELECTOR });
  if (cached?.known && cached.object && isUnchanged(cached.object, hash)) return cached.object;
  if (cached?.known && !cached.object && !md.status?.provider?.resourceName) return undefined;
  return kubeCall(`read ${primary.kind}`, () => p.objects.get(primaryRef));
}

/** Deletes the resource whose identity fields changed, with a warning: it is recreated on a later pass. The claims stay (the model cache on them too). */
async function deleteForRecreation(p: ProviderClients, ref: ObjectRef, md: ModelDeployment, primary: KubernetesObject, identityChanges: string[]): Promise<void> {
  await p.record(ref, {
    type: 'Warning',
    reason: 'RecreatingResource',
    message: `Identity fields changed (${identityChanges.join(', ')}): deleting and recreating ${primary.kind} '${primary.metadata.name}'; the model is unavailable until it is recreated`,
  });
  await deleteOwnedObjects(p.providerCrd, p.deps.informers, p.objects, p.provider, ref, md.metadata.name ?? ref.name, undefined, [CLAIM_OWNED_KIND.kind]);
}

/** What applying the rendered resource over `current` does. */
function applyResult(current: AnyObject | undefined, hash: string): ApplyOutcome['result'] {
  const annotations = current?.metadata?.annotations ?? {};
  if (!current) return 'created';
  if (annotations[RENDER_HASH_ANNOTATION] !== hash) return 'updated';
  if (annotations[APPLIED_STATE_ANNOTATION] !== stateHash(current)) return 'drift-restored';
  return 'unchanged';
}

/**
 * Writes the primary resource stamped with its render hash, then (metadata only: it does not bump the
 * generation, and annotations are outside the hash) the state it was applied in. Its caller awaits that
 * second write beside the status write (neither needs the other); handled here at once so a failure
 * meanwhile is not an unhandled rejection.
 */
async function writePrimary(p: ProviderClients, primary: KubernetesObject, stamped: AnyObject, created: boolean): Promise<{ stored: AnyObject; recording: Promise<unknown> } | { refusal: string }> {
  if (created) p.deps.wrote?.({ ...stamped, metadata: { ...stamped.metadata, generation: 1 } });
  const answer = await applyOne(p, primary, stamped);
  if ('refusal' in answer) return answer;
  const { applied } = answer;
  p.deps.wrote?.(applied);
  const recording = kubeCall(`record ${primary.kind} state`, () => p.objects.mergePatch(p.refOf(primary), { metadata: { annotations: { [APPLIED_STATE_ANNOTATION]: stateHash(applied) } } }));
  recording.catch(() => undefined);
  return { stored: applied, recording };
}

/**
 * Server-side applies the rendered objects when they differ from what is stored; a resource whose
 * identity fields changed is deleted to be recreated, and nothing is written for an object the CRD
 * would refuse (nor a resource to recreate deleted).
 */
export async function applyRendered(p: ProviderClients, ref: ObjectRef, md: ModelDeployment, { objects: rendered, routing, crd, gateway }: Rendered): Promise<Applied> {
  const [primary, ...others] = rendered;
  if (!primary) throw activityFailure('ProviderBug', `provider ${p.provider.name} rendered nothing`);
  const resource = { apiVersion: primary.apiVersion, kind: primary.kind, name: primary.metadata.name };
  const hash = renderHash(primary);
  const current = await currentResource(p, md, primary, p.refOf(primary), hash);
  const outcome = (result: ApplyOutcome['result'], more: Partial<ApplyOutcome> = {}): ApplyOutcome => ({ result, resource, identityChanges: [], warnings: [], ...more });
  if (current?.metadata?.deletionTimestamp) return { outcome: outcome('waiting-for-deletion'), stored: current };
  const refused = (refusal: string) => ({ outcome: outcome('refused', { refusal }), stored: current });
  const identityChanges = changedIdentityFields(current?.metadata?.annotations?.[IDENTITY_ANNOTATION], md.spec);
  if (current && identityChanges.length > 0) {
    const refusal = schemaRefusal(primary, crd);
    if (refusal) return refused(refusal);
    await deleteForRecreation(p, ref, md, primary, identityChanges);
    return { outcome: outcome('recreating', { identityChanges }), stored: current };
  }
  const stamped = { ...primary, metadata: { ...primary.metadata, annotations: { ...primary.metadata.annotations, [RENDER_HASH_ANNOTATION]: hash } } };
  const result = applyResult(current, hash);
  let written: { stored: AnyObject | undefined; recording?: Promise<unknown> } = { stored: current };
  if (result !== 'unchanged') {
    const refusal = schemaRefusal(stamped, crd);
    if (refusal) return refused(refusal);
    const answer = await writePrimary(p, primary, stamped, result === 'created');
    if ('refusal' in answer) return refused(answer.refusal);
    written = answer;
  }
  for (const obj of others) {
    const answer = await applyOne(p, obj, obj);
    if ('refusal' in answer) return { ...refused(answer.refusal), ...written };
  }
  const routingProblem = await applyRouting(p, ref, md, routing, !gateway.undecided);
  if (result === 'created') p.recorder.post(involved(ref), events.resourceCreated(primary.kind, primary.metadata.name));
  if (result === 'drift-restored') await p.record(ref, events.driftDetected());
  return { outcome: outcome(result), ...written, ...(routingProblem ? { routingProblem } : {}) };
}

/**
 * Applies the route and pool, and removes the ones no longer rendered (only when the plan is known).
 * What the API server refuses, and (unless the spec asked for routing) any failure, is GatewayReady=False:
 * the model itself is served whether or not a Gateway can reach it.
 */
async function applyRouting(p: ProviderClients, ref: ObjectRef, md: ModelDeployment, routing: readonly KubernetesObject[], prune: boolean): Promise<UnifiedCondition | undefined> {
  try {
    for (const obj of routing) {
      const answer = await applyOne(p, obj, obj);
      if ('refusal' in answer) return gatewayNotReady('RouteRefused', answer.refusal);
    }
    if (prune) await pruneGatewayObjects(p.gateways, p.objects, p.deps.informers, md, ref, routing);
    return undefined;
  } catch (err) {
    if (routingAskedFor(md)) throw err;
    return gatewayNotReady('RoutingFailed', `The route could not be applied: ${messageOf(err)}`);
  }
}
