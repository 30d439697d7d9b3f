// What the conformance check sends: each built-in provider's rendering of every golden input and of every
// ModelDeployment manifest given (the repository's examples, the user's own files), once per API version
// to check; and the KEDA ScaledObject of every AsyncActor manifest. Only the upstream kinds are kept
// (Workspace, DynamoGraphDeployment, RayService, ScaledObject): the core objects beside them (ConfigMaps,
// Deployments) are checked by Kubernetes' own types, not by a CRD that may differ from what we expect.
// Pure: rendering only, no cluster.

import { ASYNC_ACTOR_KIND, KEDA_GROUP, KEDA_VERSION, SCALED_OBJECT_KIND, SCALED_OBJECT_PLURAL } from '../../api/asya/constants.ts';
import { MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import type { ModelDeployment } from '../../api/types.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import type { GoldenInput } from '../../providers/golden-inputs.ts';
import { builtinProviders, findProvider, type ProviderDefinition, type ProviderResourceType } from '../../providers/index.ts';
import { modelDeploymentFacts, renderAsyncActorDocument, type ModelDeploymentFacts } from '../../kinds/asya/manifests.ts';
import { planDeployment } from '../../kinds/model-deployment/deployment-plan.ts';
import { describeObject, kindOf, type ManifestDocument } from '../../present/documents.ts';
import { GATEWAY_GROUP, INFERENCE_GROUP, renderGatewayObjects, type GatewayPlan } from '../../providers/shared/gateway.ts';
import type { ProviderCatalog } from '../../kinds/model-deployment/provider-catalog.ts';

/** A kind the check sends to the cluster: a built-in provider's resource, or KEDA's ScaledObject (AsyncActors). */
export interface ConformanceTarget {
  /** `kaito`, `dynamo`, `kuberay`, `keda`. */
  name: string;
  resource: ProviderResourceType;
}

export const KEDA_TARGET: ConformanceTarget = {
  name: 'keda',
  resource: { group: KEDA_GROUP, kind: SCALED_OBJECT_KIND, plural: SCALED_OBJECT_PLURAL, versions: [KEDA_VERSION] },
};

/** A deployment's route (the Gateway API) and pool (its Inference Extension), rendered beside every provider's objects. */
export const GATEWAY_TARGETS: readonly ConformanceTarget[] = [
  { name: 'httproute', resource: { group: GATEWAY_GROUP, kind: 'HTTPRoute', plural: 'httproutes', versions: ['v1'] } },
  { name: 'inferencepool', resource: { group: INFERENCE_GROUP, kind: 'InferencePool', plural: 'inferencepools', versions: ['v1'] } },
];

export function conformanceTargets(): ConformanceTarget[] {
  return [...builtinProviders.map((p) => ({ name: p.name, resource: p.resource })), KEDA_TARGET, ...GATEWAY_TARGETS];
}

/** How routes are checked: attached to a Gateway of this name (the API server does not look it up), to the Service or to the pool. */
const CONFORMANCE_GATEWAY = { name: 'conformance-gateway', namespace: 'default' };
const GATEWAY_PLANS: readonly GatewayPlan[] = [
  { gateway: CONFORMANCE_GATEWAY },
  { gateway: CONFORMANCE_GATEWAY, inferencePool: { endpointPicker: { name: 'conformance-epp', port: 9002 } } },
];

export interface RenderedCase {
  target: string;
  apiVersion: string;
  /** What it was rendered from, for the report. */
  source: string;
  object: AnyObject;
}

export interface ConformanceInputs {
  /** ModelDeployment and AsyncActor manifests; other kinds are ignored. */
  documents: readonly ManifestDocument[];
  goldens: readonly GoldenInput[];
}

/**
 * A ModelDeployment read from a file has no uid, but the rendered owner reference needs one for the API
 * server to take it (a dry-run never reaches the garbage collector, so no object goes looking for it).
 */
export const PLACEHOLDER_UID = '00000000-0000-4000-8000-00000000c0f0';

/**
 * The objects to send, for the API versions given per target (`group/version`s; a target without any is
 * left out). Manifests are rendered by every built-in provider that can serve them (forced as
 * `--provider` would), so an example written for one provider still checks the others' schemas.
 */
export function renderCases(inputs: ConformanceInputs, catalog: ProviderCatalog, versions: ReadonlyMap<string, readonly string[]>): { cases: RenderedCase[]; notes: string[] } {
  const cases: RenderedCase[] = [];
  const notes: string[] = [];
  const versionsOf = (target: string) => versions.get(target) ?? [];

  for (const golden of inputs.goldens) {
    const provider = findProvider(golden.provider);
    if (!provider) {
      notes.push(`golden ${golden.provider}/${golden.name}: no built-in provider ${golden.provider}`);
      continue;
    }
    for (const apiVersion of versionsOf(provider.name)) {
      const rendered = renderPrimary(provider, golden.md, apiVersion);
      if ('error' in rendered) notes.push(`golden ${golden.provider}/${golden.name} (${apiVersion}): ${rendered.error}`);
      else cases.push({ target: provider.name, apiVersion, source: `golden ${golden.provider}/${golden.name}`, object: rendered.object });
    }
    cases.push(...gatewayCases(provider, golden.md, `golden ${golden.provider}/${golden.name}`, versionsOf));
  }

  const facts: ModelDeploymentFacts[] = [];
  for (const doc of inputs.documents.filter((d) => kindOf(d) === MODEL_DEPLOYMENT_KIND)) {
    const name = `${doc.source}: ${describeObject(doc)}`;
    // As the controller would place it, for the AsyncActors that bind to it.
    const own = planDeployment(doc, catalog);
    if (own.problems.length > 0 || !own.provider) notes.push(`${name}: ${own.problems[0] ?? 'no built-in provider selected'}`);
    else facts.push(predictedFacts(own.provider, withUid(own.md)));

    for (const provider of builtinProviders) {
      if (versionsOf(provider.name).length === 0) continue;
      const plan = planDeployment(doc, catalog, { provider: provider.name });
      // A manifest this provider cannot serve (wrong engine, its overrides) is simply not its input.
      if (plan.problems.length > 0) continue;
      for (const apiVersion of versionsOf(provider.name)) {
        const rendered = renderPrimary(provider, withUid(plan.md), apiVersion);
        if ('error' in rendered) notes.push(`${name} (${provider.name}, ${apiVersion}): ${rendered.error}`);
        else cases.push({ target: provider.name, apiVersion, source: doc.source, object: rendered.object });
      }
    }
  }

  const keda = versionsOf(KEDA_TARGET.name);
  for (const doc of inputs.documents.filter((d) => kindOf(d) === ASYNC_ACTOR_KIND)) {
    if (keda.length === 0) break;
    const result = renderAsyncActorDocument(doc, { workloads: [], modelDeployments: facts });
    if (result.problems.length > 0) {
      notes.push(`${doc.source}: ${describeObject(doc)}: ${result.problems[0]}`);
      continue;
    }
    for (const object of result.objects.filter((o) => o.kind === SCALED_OBJECT_KIND && keda.includes(o.apiVersion ?? ''))) {
      cases.push({ target: KEDA_TARGET.name, apiVersion: object.apiVersion!, source: doc.source, object: { ...object, metadata: { ...object.metadata, ownerReferences: withUids(object) } } });
    }
  }
  return { cases, notes };
}

/** The route (to the Service, and to the pool) and the pool rendered for a deployment, for the versions each target is checked in. */
function gatewayCases(provider: ProviderDefinition, md: ModelDeployment, source: string, versionsOf: (target: string) => readonly string[]): RenderedCase[] {
  const out: RenderedCase[] = [];
  for (const plan of GATEWAY_PLANS) {
    for (const object of renderGatewayObjects(md, provider.servingEndpoint(md), plan)) {
      const target = GATEWAY_TARGETS.find((t) => t.resource.kind === object.kind)!;
      if (!versionsOf(target.name).includes(object.apiVersion)) continue;
      // Both plans render the same pool: checked once.
      if (out.some((c) => c.object.kind === object.kind && object.kind === 'InferencePool')) continue;
      out.push({ target: target.name, apiVersion: object.apiVersion, source: `${source} (${provider.name})`, object });
    }
  }
  return out;
}

function withUid(md: ModelDeployment): ModelDeployment {
  return md.metadata.uid ? md : { ...md, metadata: { ...md.metadata, uid: PLACEHOLDER_UID } };
}

/** An AsyncActor's objects are owned by the actor, which a manifest gives no uid either. */
function withUids(object: AnyObject): NonNullable<AnyObject['metadata']>['ownerReferences'] {
  return object.metadata?.ownerReferences?.map((o) => ({ ...o, uid: o.uid || PLACEHOLDER_UID }));
}

/** The provider's own resource (the first object it renders), or why it could not be rendered. */
function renderPrimary(provider: ProviderDefinition, md: ModelDeployment, apiVersion: string): { object: AnyObject } | { error: string } {
  try {
    const object = provider.render(md, { apiVersion }).objects[0];
    return object ? { object } : { error: 'rendered no object' };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function predictedFacts(provider: ProviderDefinition, md: ModelDeployment): ModelDeploymentFacts {
  const apiVersion = `${provider.resource.group}/${provider.resource.versions[0]}`;
  const rendered = renderPrimary(provider, md, apiVersion);
  const object = 'object' in rendered ? rendered.object : undefined;
  return modelDeploymentFacts(md, object, provider.mapStatus(object).endpoint);
}
