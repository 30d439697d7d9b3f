import { API_VERSION, MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import { conditionMessages, events } from '../../api/messages.ts';
import type { ModelDeployment } from '../../api/types.ts';
import type { ObjectRef } from '../../contract/object-ref.ts';
import type { CompatibilityOutcome, ObservedStatus } from '../../contract/provider-activities.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { kubeCall } from '../../kube/errors.ts';
import { kubeNow } from '../../kube/time.ts';
import type { KubernetesObject, UnifiedCondition } from '../../providers/contract.ts';
import { modelDeploymentResource } from '../deployment-ref.ts';
import { withTransitionTimes, type DesiredCondition } from '../status/conditions.ts';
import { replicasWithoutResource } from '../status/replicas-without-resource.ts';
import { statusUnchanged, type OwnedStatus } from '../status/unchanged.ts';
import type { GatewayDecision } from './gateway-lookup.ts';
import { observeGateway } from './gateway-observe.ts';
import type { ProviderClients } from './provider-clients.ts';
import { readRelated } from './related-read.ts';
import { RESOURCE_REFUSED } from './refusal.ts';
import { readUpstream } from './upstream-read.ts';

/** What the core writes in status (seed 000 "Status Ownership"): its conditions, and `provider.name` and `selectedReason` beside ours. */
const CORE_OWNED = { conditionTypes: ['Validated', 'ProviderSelected', 'ReconcilePaused'], shared: ['provider'] };

/** The deployment as the provider sees it this pass: phase, message, conditions, the status fields beside them. */
interface Observation {
  phase: ObservedStatus['phase'];
  message?: string;
  conditions: DesiredCondition[];
  extra: Record<string, unknown>;
  /** Why a replica is not ready (the status mapping's reason), for its event. */
  notReadyReason?: string;
}

/** A compatible deployment's resource: not creatable (no CRD), not created yet, or mapped to the unified status. */
async function observeResource(p: ProviderClients, ref: ObjectRef, md: ModelDeployment, rendered: KubernetesObject[] | undefined, upstreamKnown?: AnyObject): Promise<Observation> {
  const compatible: DesiredCondition = { type: 'ProviderCompatible', status: 'True', reason: 'CompatibilityVerified', message: conditionMessages.compatibilityVerified(p.provider.displayName) };
  // No resource: no replica can be ready, whatever counts status showed while it existed.
  const without = replicasWithoutResource(md.status?.replicas);
  const gone = without ? { replicas: without } : {};
  const primary = rendered?.[0];
  const upstream = primary ? (upstreamKnown ?? (await readUpstream(p.objects, p.deps.informers, p.refOf(primary), primary.kind))) : undefined;
  if (!primary) {
    const message = `Provider '${p.provider.name}' CRD not installed in cluster`;
    return { phase: 'Pending', message, conditions: [compatible, { type: 'ResourceCreated', status: 'False', reason: 'CRDNotInstalled', message }], extra: gone };
  }
  if (!upstream) {
    const message = `${primary.kind} '${primary.metadata.name}' not created yet`;
    return { phase: 'Pending', message, conditions: [compatible, { type: 'ResourceCreated', status: 'False', reason: 'ResourceNotCreated', message }], extra: gone };
  }
  const { statusReads } = p.provider;
  const related = statusReads ? await readRelated(p.objects, p.deps.informers, statusReads, ref.namespace, md.metadata.name ?? ref.name) : undefined;
  const mapped = related ? p.provider.mapStatus(upstream, related) : p.provider.mapStatus(upstream);
  return {
    phase: mapped.phase,
    message: mapped.message,
    notReadyReason: mapped.notReadyReason,
    conditions: [compatible, { type: 'ResourceCreated', status: 'True', reason: 'ResourceCreated', message: conditionMessages.resourceCreated(primary.kind) }, ...mapped.conditions],
    extra: { provider: { resourceName: primary.metadata.name, resourceKind: primary.kind }, replicas: mapped.replicas, ...(mapped.endpoint ? { endpoint: mapped.endpoint } : {}) },
  };
}

/** The resource as rendered from this spec cannot exist: that is the deployment's answer, whatever an older resource (an update refused) still reports. */
function refused(observation: Observation, refusal: string): Observation {
  const condition: DesiredCondition = { type: 'ResourceCreated', status: 'False', reason: RESOURCE_REFUSED, message: refusal };
  const i = observation.conditions.findIndex((c) => c.type === 'ResourceCreated');
  const conditions = i >= 0 ? observation.conditions.map((c, j) => (j === i ? condition : c)) : [...observation.conditions, condition];
  return { ...observation, phase: 'Failed', message: refusal, conditions };
}

/** Writes every provider-owned status field, unless the deployment already says it all. */
async function writeStatus(p: ProviderClients, ref: ObjectRef, md: ModelDeployment, status: OwnedStatus): Promise<void> {
  const owned = { message: undefined, provider: undefined, replicas: undefined, endpoint: undefined, gateway: undefined, ...status };
  if (statusUnchanged(md.status as Record<string, unknown> | undefined, owned, CORE_OWNED)) return;
  const body = { apiVersion: API_VERSION, kind: MODEL_DEPLOYMENT_KIND, metadata: { name: ref.name, namespace: ref.namespace }, status };
  await kubeCall('write status', () => p.objects.applyStatus(modelDeploymentResource(ref), body, p.fieldManager));
}

/** The Warning events of a pass, each once per distinct message: a pass that finds the same again (a resync, a restart) says nothing new. */
async function recordObservation(p: ProviderClients, ref: ObjectRef, md: ModelDeployment, seen: Observation, refusal: string | undefined, routing: UnifiedCondition | undefined): Promise<void> {
  const { phase, message, notReadyReason } = seen;
  if (refusal) {
    const shown = md.status?.conditions?.find((c) => c.type === 'ResourceCreated');
    if (!(shown?.reason === RESOURCE_REFUSED && shown.message === refusal)) await p.record(ref, { type: 'Warning', reason: RESOURCE_REFUSED, message: refusal });
  } else if (phase === 'Failed' && md.status?.phase !== 'Failed') await p.record(ref, events.providerError(message ?? 'unknown error'));
  else if (notReadyReason && message && message !== md.status?.message) {
    // Why a replica is not ready (a pod's image, crash loop, scheduling): the status already says it,
    // the event puts it in `kubectl describe` and the event stream.
    await p.record(ref, { type: 'Warning', reason: notReadyReason, message });
  }
  if (routing?.status === 'False') {
    // A route the Gateway refuses (or no Gateway at all).
    const shown = md.status?.conditions?.find((c) => c.type === routing.type);
    if (shown?.message !== routing.message) await p.record(ref, { type: 'Warning', reason: routing.reason, message: routing.message });
  }
}

/**
 * Maps the provider resource's status to the unified status and writes every provider-owned status
 * field. `upstreamKnown` is the resource when the caller has just read or written it; otherwise it is read here.
 */
export async function observeWith(
  p: ProviderClients,
  ref: ObjectRef,
  md: ModelDeployment,
  compatibility: CompatibilityOutcome,
  rendered: KubernetesObject[] | undefined,
  upstreamKnown?: AnyObject,
  refusal?: string,
  gateway?: GatewayDecision,
): Promise<ObservedStatus> {
  const incompatible = compatibility.errors.join('; ');
  let seen: Observation = compatibility.compatible
    ? await observeResource(p, ref, md, rendered, upstreamKnown)
    : { phase: 'Failed', message: incompatible, conditions: [{ type: 'ProviderCompatible', status: 'False', reason: 'IncompatibleConfiguration', message: incompatible }], extra: {} };
  if (refusal && compatibility.compatible && rendered?.[0]) seen = refused(seen, refusal);
  const routing = gateway && !refusal ? await observeGateway(p.gateways, md, gateway) : undefined;
  const conditions = routing ? [...seen.conditions, routing.condition] : seen.conditions;
  const generation = md.metadata.generation ?? 0;
  await writeStatus(p, ref, md, {
    observedGeneration: generation,
    phase: seen.phase,
    ...(seen.message ? { message: seen.message } : {}),
    ...seen.extra,
    ...(routing?.status ? { gateway: routing.status } : {}),
    conditions: withTransitionTimes(md.status?.conditions, conditions, kubeNow(), generation),
  });
  await recordObservation(p, ref, md, seen, refusal, routing?.condition);
  return { phase: seen.phase, message: seen.message, ready: conditions.some((c) => c.type === 'Ready' && c.status === 'True') };
}
