import type { KubeConfig } from '@kubernetes/client-node';
import { activityFailure } from '../../contract/failure-types.ts';
import { API_VERSION, MODEL_DEPLOYMENT_KIND, providerFieldManager } from '../../api/constants.ts';
import { conditionMessages, events } from '../../api/messages.ts';
import type { ModelDeployment } from '../../api/types.ts';
import type { KubernetesObject, ProviderDefinition } from '../../providers/contract.ts';
import { CustomObjects, splitApiVersion, type AnyObject, type ResourceRef } from '../../kube/custom-objects.ts';
import { kubeCall, refusalOf, toActivityFailure } from '../../kube/errors.ts';
import { EventRecorder } from '../../kube/events.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import type { ObjectRef, ReadRef } from '../../contract/object-ref.ts';
import { involved, MODEL_DEPLOYMENT, modelDeploymentResource } from '../deployment-ref.ts';
import { KindClient } from '../kind/kind-client.ts';
import { withTransitionTimes, type DesiredCondition } from '../status/conditions.ts';
import { kubeNow } from '../../kube/time.ts';
import { statusUnchanged } from '../status/unchanged.ts';
import { replicasWithoutResource } from '../status/replicas-without-resource.ts';
import { APPLIED_STATE_ANNOTATION, RENDER_HASH_ANNOTATION, renderHash, stateHash } from './applied-state.ts';
import { changedIdentityFields, IDENTITY_ANNOTATION, identityOf } from './identity.ts';
import { providerCrdRef, versionOfResource } from '../../providers/crd-version.ts';
import { readCrd } from '../../kube/installed-crd.ts';
import { apiRefusal, RESOURCE_REFUSED, schemaRefusal } from './refusal.ts';
import { deleteOwnedObjects } from './cleanup.ts';
import { CLAIM_OWNED_KIND } from '../../providers/shared/storage.ts';
import { readUpstream } from './upstream-read.ts';
import { readRelated } from './related-read.ts';
import { MANAGED_SELECTOR } from '../../api/constants.ts';
import { renderGatewayObjects } from '../../providers/shared/gateway.ts';
import { DEFAULT_GATEWAY_DEFAULTS, GatewayLookup, type GatewayDecision, type GatewayDefaults } from './gateway-lookup.ts';
import { gatewayKinds, observeGateway, pruneGatewayObjects } from './gateway-observe.ts';
import type { ApplyOutcome, CleanupOutcome, CompatibilityOutcome, ObservedStatus, ProviderActivities, ReconcileOutcome } from '../../contract/provider-activities.ts';

export interface ProviderActivityDeps {
  kc: KubeConfig;
  /** The process's shared informers: the deployment, the CRD and the provider's resources are read from their caches when those can answer. */
  informers?: InformerSet;
  /**
   * Told about every provider resource this process writes, as the API server stores it (for a create,
   * told first what it will look like, so the watch event cannot outrun the news): the resource watch
   * then knows the echo of that write is not news and wakes no workflow for it.
   */
  wrote?: (stored: AnyObject) => void;
  /**
   * Told before the cleanup deletes a provider resource: when the API server removes it at once, the
   * cleanup's caller knows it is gone, so the watch's echo of that deletion wakes no workflow. The
   * function returned takes that back (finalizers hold the resource: its deletion will be news).
   */
  expectRemoval?: (obj: AnyObject) => () => void;
  /** The controller's routing settings (--gateway-* flags): which Gateway, and what a route points at. */
  gateway?: GatewayDefaults;
}

/** What the core writes in status (seed 000 "Status Ownership"): its conditions, and `provider.name` and `selectedReason` beside ours. */
const CORE_OWNED = { conditionTypes: ['Validated', 'ProviderSelected', 'ReconcilePaused'], shared: ['provider'] };

const unchangedNothing: ApplyOutcome = { result: 'unchanged', resource: undefined, identityChanges: [], warnings: [] };

/**
 * The activities a provider worker serves on its own task queue. Everything provider-specific comes
 * from the pure ProviderDefinition; this factory adds the Kubernetes I/O around it.
 */
export function createProviderActivities(provider: ProviderDefinition, deps: ProviderActivityDeps): ProviderActivities {
  const objects = new CustomObjects(deps.kc);
  const fieldManager = providerFieldManager(provider.name);
  const recorder = new EventRecorder(deps.kc, fieldManager);
  const plurals = new Map([...provider.ownedKinds, ...gatewayKinds].map((k) => [k.kind, k.plural]));
  const gateways = new GatewayLookup(objects, deps.informers, deps.gateway ?? DEFAULT_GATEWAY_DEFAULTS);

  const deployments = new KindClient<ModelDeployment>(MODEL_DEPLOYMENT, { kc: deps.kc, informers: deps.informers, fieldManager, objects });
  const live = (ref: ReadRef) => deployments.read(ref);
  const record = (ref: ObjectRef, event: { type: 'Normal' | 'Warning'; reason: string; message: string }) =>
    kubeCall('record event', () => recorder.record(involved(ref), event));

  const refOf = (obj: { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } }): ResourceRef => {
    const plural = plurals.get(obj.kind);
    if (!plural) throw activityFailure('ProviderBug', `provider ${provider.name} rendered a ${obj.kind}, which is not among its owned kinds`);
    return { ...splitApiVersion(obj.apiVersion), plural, namespace: obj.metadata.namespace, name: obj.metadata.name };
  };

  /**
   * Renders for the installed CRD version; undefined when the provider's CRD is not installed. The CRD
   * comes along: the rendered resource is checked against its schema before it is applied.
   */
  const renderFor = async (md: ModelDeployment): Promise<Rendered | undefined> => {
    const crd = await kubeCall(`detect ${provider.resource.kind} CRD`, () => readCrd(deps.kc, deps.informers, providerCrdRef(provider.resource)));
    const choice = versionOfResource(provider.resource, crd);
    if (choice === undefined) return undefined;
    if ('error' in choice) throw activityFailure('UnsupportedCrdVersion', choice.error);
    const own = provider.render(md, { apiVersion: choice.apiVersion }).objects.map(withRecordedIdentity(md));
    // The route (and pool) follow the provider's objects: applied, kept and cleaned up with them.
    const gateway = await gateways.decide(md);
    return { objects: [...own, ...renderGatewayObjects(md, provider.servingEndpoint(md), gateway.plan)], crd, gateway };
  };

  /**
   * Server-side apply of one rendered object; a refusal by the API server because of the object
   * (kube/errors.ts `refused`) comes back as its message instead of a failure: retrying cannot help.
   */
  const applyOne = async (obj: KubernetesObject, body: AnyObject): Promise<{ applied: AnyObject } | { refusal: string }> => {
    try {
      return { applied: await objects.apply(refOf(obj), body, fieldManager) };
    } catch (err) {
      const refused = refusalOf(err);
      if (refused) return { refusal: apiRefusal(obj, refused.detail) };
      throw toActivityFailure(err, `apply ${obj.kind}`);
    }
  };

  /**
   * Server-side applies the rendered objects when they differ from what is stored. The cached resource
   * only ever proves "unchanged"; any other verdict (create, update, drift, identity change) is made on
   * a fresh read, so a cache that lags our own last write can neither hide a change nor invent drift.
   */
  const applyRendered = async (
    ref: ObjectRef,
    md: ModelDeployment,
    { objects: rendered, crd }: Rendered,
  ): Promise<{ outcome: ApplyOutcome; stored: AnyObject | undefined; recording?: Promise<unknown> }> => {
    const [primary, ...others] = rendered;
    if (!primary) throw activityFailure('ProviderBug', `provider ${provider.name} rendered nothing`);
    const primaryRef = refOf(primary);
    const resource = { apiVersion: primary.apiVersion, kind: primary.kind, name: primary.metadata.name };
    const hash = renderHash(primary);
    const cached = deps.informers?.cached(primaryRef, { labelSelector: MANAGED_SELECTOR });
    // A filled cache without the resource, and a status that names none, agree that it was never
    // created: no read is needed before creating it (server-side apply would not duplicate it anyway).
    const neverCreated = cached?.known && !cached.object && !md.status?.provider?.resourceName;
    const current = cached?.known && cached.object && isUnchanged(cached.object, hash) ? cached.object : neverCreated ? undefined : await kubeCall(`read ${primary.kind}`, () => objects.get(primaryRef));

    if (current?.metadata?.deletionTimestamp) return { outcome: { result: 'waiting-for-deletion', resource, identityChanges: [], warnings: [] }, stored: current };
    // Nothing is written (and a resource to recreate is not deleted) for an object the CRD would refuse.
    const refused = (refusal: string) => ({ outcome: { result: 'refused' as const, resource, identityChanges: [], warnings: [], refusal }, stored: current });
    const identityChanges = changedIdentityFields(current?.metadata?.annotations?.[IDENTITY_ANNOTATION], md.spec);
    if (current && identityChanges.length > 0) {
      const refusal = schemaRefusal(primary, crd);
      if (refusal) return refused(refusal);
      await record(ref, {
        type: 'Warning',
        reason: 'RecreatingResource',
        message: `Identity fields changed (${identityChanges.join(', ')}): deleting and recreating ${primary.kind} '${primary.metadata.name}'; the model is unavailable until it is recreated`,
      });
      // The claims stay: the new resource mounts them again, and a model cache need not be downloaded twice.
      await deleteOwnedObjects(deps.kc, deps.informers, objects, provider, ref, md.metadata.name ?? ref.name, undefined, [CLAIM_OWNED_KIND.kind]);
      return { outcome: { result: 'recreating', resource, identityChanges, warnings: [] }, stored: current };
    }

    const stamped = { ...primary, metadata: { ...primary.metadata, annotations: { ...primary.metadata.annotations, [RENDER_HASH_ANNOTATION]: hash } } };
    const annotations = current?.metadata?.annotations ?? {};
    let result: ApplyOutcome['result'];
    if (!current) result = 'created';
    else if (annotations[RENDER_HASH_ANNOTATION] !== hash) result = 'updated';
    else if (annotations[APPLIED_STATE_ANNOTATION] !== stateHash(current)) result = 'drift-restored';
    else result = 'unchanged';

    let stored = current;
    let recording: Promise<unknown> | undefined;
    if (result !== 'unchanged') {
      const refusal = schemaRefusal(stamped, crd);
      if (refusal) return refused(refusal);
      if (result === 'created') deps.wrote?.({ ...stamped, metadata: { ...stamped.metadata, generation: 1 } });
      const answer = await applyOne(primary, stamped);
      if ('refusal' in answer) return refused(answer.refusal);
      const { applied } = answer;
      deps.wrote?.(applied);
      stored = applied;
      // Metadata-only write: it does not bump the generation, and annotations are outside the hash. Its
      // caller awaits it beside the status write (neither needs the other); handled here at once so a
      // failure meanwhile is not an unhandled rejection.
      recording = kubeCall(`record ${primary.kind} state`, () =>
        objects.mergePatch(primaryRef, { metadata: { annotations: { [APPLIED_STATE_ANNOTATION]: stateHash(applied) } } }),
      );
      recording.catch(() => undefined);
    }
    for (const obj of others) {
      const answer = await applyOne(obj, obj);
      if ('refusal' in answer) return { ...refused(answer.refusal), stored, ...(recording ? { recording } : {}) };
    }
    await pruneGatewayObjects(objects, md, ref, rendered);
    if (result === 'created') recorder.post(involved(ref), events.resourceCreated(primary.kind, primary.metadata.name));
    if (result === 'drift-restored') await record(ref, events.driftDetected());
    return { outcome: { result, resource, identityChanges: [], warnings: [] }, stored, ...(recording ? { recording } : {}) };
  };

  /**
   * Maps the provider resource's status to the unified status and writes every provider-owned status
   * field. `upstream` is the resource when the caller has just read or written it; otherwise it is read here.
   */
  const observeWith = async (
    ref: ObjectRef,
    md: ModelDeployment,
    compatibility: CompatibilityOutcome,
    rendered: KubernetesObject[] | undefined,
    upstreamKnown?: AnyObject,
    refusal?: string,
    gateway?: GatewayDecision,
  ): Promise<ObservedStatus> => {
    const conditions: DesiredCondition[] = [];
    let phase: ObservedStatus['phase'];
    let message: string | undefined;
    let extra: Record<string, unknown> = {};
    let notReadyReason: string | undefined;
    // No resource: no replica can be ready, whatever counts status showed while it existed.
    const without = replicasWithoutResource(md.status?.replicas);
    const gone = without ? { replicas: without } : {};

    if (!compatibility.compatible) {
      phase = 'Failed';
      message = compatibility.errors.join('; ');
      conditions.push({ type: 'ProviderCompatible', status: 'False', reason: 'IncompatibleConfiguration', message });
    } else {
      conditions.push({ type: 'ProviderCompatible', status: 'True', reason: 'CompatibilityVerified', message: conditionMessages.compatibilityVerified(provider.displayName) });
      const primary = rendered?.[0];
      const upstream = primary ? (upstreamKnown ?? (await readUpstream(objects, deps.informers, refOf(primary), primary.kind))) : undefined;
      if (!primary) {
        phase = 'Pending';
        message = `Provider '${provider.name}' CRD not installed in cluster`;
        conditions.push({ type: 'ResourceCreated', status: 'False', reason: 'CRDNotInstalled', message });
        extra = gone;
      } else if (!upstream) {
        phase = 'Pending';
        message = `${primary.kind} '${primary.metadata.name}' not created yet`;
        conditions.push({ type: 'ResourceCreated', status: 'False', reason: 'ResourceNotCreated', message });
        extra = gone;
      } else {
        const related = provider.statusReads ? await readRelated(objects, deps.informers, provider.statusReads, ref.namespace, md.metadata.name ?? ref.name) : undefined;
        const mapped = related ? provider.mapStatus(upstream, related) : provider.mapStatus(upstream);
        phase = mapped.phase;
        message = mapped.message;
        notReadyReason = mapped.notReadyReason;
        conditions.push({ type: 'ResourceCreated', status: 'True', reason: 'ResourceCreated', message: conditionMessages.resourceCreated(primary.kind) });
        conditions.push(...mapped.conditions);
        extra = {
          provider: { resourceName: primary.metadata.name, resourceKind: primary.kind },
          replicas: mapped.replicas,
          ...(mapped.endpoint ? { endpoint: mapped.endpoint } : {}),
        };
      }
    }
    if (refusal && compatibility.compatible && rendered?.[0]) {
      // The resource as rendered from this spec cannot exist: that is the deployment's answer, whatever
      // an older resource (an update refused) still reports.
      phase = 'Failed';
      message = refusal;
      const i = conditions.findIndex((c) => c.type === 'ResourceCreated');
      const refused: DesiredCondition = { type: 'ResourceCreated', status: 'False', reason: RESOURCE_REFUSED, message: refusal };
      if (i >= 0) conditions[i] = refused;
      else conditions.push(refused);
    }
    const routing = gateway && !refusal ? await observeGateway(gateways, md, gateway) : undefined;
    if (routing) conditions.push(routing.condition);
    const generation = md.metadata.generation ?? 0;
    const status = {
      observedGeneration: generation,
      phase,
      ...(message ? { message } : {}),
      ...extra,
      ...(routing?.status ? { gateway: routing.status } : {}),
      conditions: withTransitionTimes(md.status?.conditions, conditions, kubeNow(), generation),
    };
    const owned = { message: undefined, provider: undefined, replicas: undefined, endpoint: undefined, gateway: undefined, ...status };
    if (!statusUnchanged(md.status as Record<string, unknown> | undefined, owned, CORE_OWNED)) {
      const body = { apiVersion: API_VERSION, kind: MODEL_DEPLOYMENT_KIND, metadata: { name: ref.name, namespace: ref.namespace }, status };
      await kubeCall('write status', () => objects.applyStatus(modelDeploymentResource(ref), body, fieldManager));
    }
    if (refusal) {
      // Once per refusal: a pass that finds the same refusal again (a resync, a restart) says nothing new.
      const shown = md.status?.conditions?.find((c) => c.type === 'ResourceCreated');
      if (!(shown?.reason === RESOURCE_REFUSED && shown.message === refusal)) await record(ref, { type: 'Warning', reason: RESOURCE_REFUSED, message: refusal });
    } else if (phase === 'Failed' && md.status?.phase !== 'Failed') await record(ref, events.providerError(message ?? 'unknown error'));
    else if (notReadyReason && message && message !== md.status?.message) {
      // Why a replica is not ready (a pod's image, crash loop, scheduling), once per distinct message:
      // the status already says it, the event puts it in `kubectl describe` and the event stream.
      await record(ref, { type: 'Warning', reason: notReadyReason, message });
    }
    if (routing?.condition.status === 'False') {
      // A route the Gateway refuses (or no Gateway at all): said once per distinct message, as above.
      const shown = md.status?.conditions?.find((c) => c.type === routing.condition.type);
      if (shown?.message !== routing.condition.message) await record(ref, { type: 'Warning', reason: routing.condition.reason, message: routing.condition.message });
    }
    return { phase, message, ready: conditions.some((c) => c.type === 'Ready' && c.status === 'True') };
  };

  return {
    async checkCompatibility(ref): Promise<CompatibilityOutcome> {
      const md = await live(ref);
      if (!md) return { compatible: true, errors: [], warnings: [] };
      return provider.compatibility(md);
    },

    async applyResource(ref): Promise<ApplyOutcome> {
      const md = await live(ref);
      if (!md) return unchangedNothing;
      const rendered = await renderFor(md);
      if (!rendered) return { result: 'crd-missing', resource: undefined, identityChanges: [], warnings: [] };
      const { outcome, recording } = await applyRendered(ref, md, rendered);
      await recording;
      return outcome;
    },

    async observeResource(ref): Promise<ObservedStatus> {
      const md = await live(ref);
      if (!md) return { phase: 'Terminating', message: undefined, ready: false };
      const compatibility = provider.compatibility(md);
      const rendered = compatibility.compatible ? await renderFor(md) : undefined;
      // Runs that call apply and observe apart (histories before reconcileResource): what the schema
      // refused in the apply step is found again here, so both paths show the same status.
      const primary = rendered?.objects[0];
      return observeWith(ref, md, compatibility, rendered?.objects, undefined, primary && rendered ? schemaRefusal(primary, rendered.crd) : undefined, rendered?.gateway);
    },

    async reconcileResource(ref): Promise<ReconcileOutcome> {
      const md = await live(ref);
      if (!md) return { compatibility: { compatible: true, errors: [], warnings: [] }, apply: unchangedNothing, observed: { phase: 'Terminating', message: undefined, ready: false } };
      const compatibility = provider.compatibility(md);
      if (!compatibility.compatible) return { compatibility, apply: undefined, observed: await observeWith(ref, md, compatibility, undefined) };
      const rendered = await renderFor(md);
      if (!rendered) {
        return { compatibility, apply: { result: 'crd-missing', resource: undefined, identityChanges: [], warnings: [] }, observed: await observeWith(ref, md, compatibility, undefined) };
      }
      const { outcome, stored, recording } = await applyRendered(ref, md, rendered);
      const upstream = outcome.result === 'recreating' ? undefined : stored;
      const [observed] = await Promise.all([observeWith(ref, md, compatibility, rendered.objects, upstream, outcome.refusal, rendered.gateway), recording]);
      return { compatibility, apply: outcome, observed };
    },

    async cleanupResources(ref): Promise<CleanupOutcome> {
      const md = await live(ref);
      // The route and pool go too (they would by garbage collection, but within the cleanup's bound).
      const routed = md?.status?.gateway ? { ...provider, ownedKinds: [...provider.ownedKinds, ...gatewayKinds] } : provider;
      const remaining = await deleteOwnedObjects(deps.kc, deps.informers, objects, routed, ref, md?.metadata.name ?? ref.name, deps.expectRemoval);
      return { gone: remaining.length === 0, remaining };
    },
  };
}

/** The cached resource proves nothing but this: it was rendered from the same spec and nobody has edited it since. */
function isUnchanged(obj: AnyObject, hash: string): boolean {
  const annotations = obj.metadata?.annotations ?? {};
  return !obj.metadata?.deletionTimestamp && annotations[RENDER_HASH_ANNOTATION] === hash && annotations[APPLIED_STATE_ANNOTATION] === stateHash(obj);
}

/** What the provider renders for the installed CRD, with that CRD (its schema checks the objects before they are applied). */
interface Rendered {
  objects: KubernetesObject[];
  crd: unknown;
  /** Which Gateway the objects route through, or why none (GatewayReady). */
  gateway: GatewayDecision;
}

function withRecordedIdentity(md: ModelDeployment) {
  return (obj: KubernetesObject, index: number): KubernetesObject =>
    index === 0 ? { ...obj, metadata: { ...obj.metadata, annotations: { ...obj.metadata.annotations, [IDENTITY_ANNOTATION]: identityOf(md.spec) } } } : obj;
}
