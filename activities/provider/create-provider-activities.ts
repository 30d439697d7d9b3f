import type { ApplyOutcome, CompatibilityOutcome, ProviderActivities } from '../../contract/provider-activities.ts';
import type { ProviderDefinition } from '../../providers/contract.ts';
import { applyRendered } from './apply-rendered.ts';
import { deleteOwnedObjects } from './cleanup.ts';
import { observeWith } from './observe-with.ts';
import { providerClients, type ProviderActivityDeps, type ProviderClientParts, type ProviderClients } from './provider-clients.ts';
import { renderFor } from './render-for.ts';

export type { ProviderActivityDeps } from './provider-clients.ts';

const unchangedNothing: ApplyOutcome = { result: 'unchanged', resource: undefined, identityChanges: [], warnings: [] };
const crdMissing: ApplyOutcome = { result: 'crd-missing', resource: undefined, identityChanges: [], warnings: [] };
const goneCompatible: CompatibilityOutcome = { compatible: true, errors: [], warnings: [] };

/** One provider pass: compatibility, apply and the status it gives, the status written beside the apply's last write. */
export function reconcileResource(p: ProviderClients): ProviderActivities['reconcileResource'] {
  return async function reconcileResource(ref) {
    const md = await p.deployments.read(ref);
    if (!md) return { compatibility: goneCompatible, apply: unchangedNothing, observed: { phase: 'Terminating', message: undefined, ready: false } };
    const compatibility = p.provider.compatibility(md);
    if (!compatibility.compatible) return { compatibility, apply: undefined, observed: await observeWith(p, ref, md, compatibility, undefined) };
    const rendered = await renderFor(p, md);
    if (!rendered) return { compatibility, apply: crdMissing, observed: await observeWith(p, ref, md, compatibility, undefined) };
    const { outcome, stored, recording, routingProblem } = await applyRendered(p, ref, md, rendered);
    const upstream = outcome.result === 'recreating' ? undefined : stored;
    const gateway = routingProblem ? { ...rendered.gateway, problem: routingProblem } : rendered.gateway;
    const [observed] = await Promise.all([observeWith(p, ref, md, compatibility, rendered.objects, upstream, outcome.refusal, gateway), recording]);
    return { compatibility, apply: outcome, observed };
  };
}

/** Deletes what the provider made for the deployment; what still exists is `remaining`. */
export function cleanupResources(p: ProviderClients): ProviderActivities['cleanupResources'] {
  return async function cleanupResources(ref) {
    const md = await p.deployments.read(ref);
    // The route and pool go too, where their CRDs are served (they would by garbage collection, but within the cleanup's bound).
    const routed = { ...p.provider, ownedKinds: [...p.provider.ownedKinds, ...(await p.gateways.servedKinds())] };
    const remaining = await deleteOwnedObjects(p.providerCrd, p.deps.informers, p.objects, routed, ref, md?.metadata.name ?? ref.name, p.deps.expectRemoval);
    return { gone: remaining.length === 0, remaining };
  };
}

/**
 * The activities a provider worker serves on its own task queue. Everything provider-specific comes
 * from the pure ProviderDefinition; these add the Kubernetes I/O around it.
 */
export function createProviderActivities(provider: ProviderDefinition, deps: ProviderActivityDeps, parts?: ProviderClientParts): ProviderActivities {
  const p = providerClients(provider, deps, parts);
  return {
    reconcileResource: reconcileResource(p),
    cleanupResources: cleanupResources(p),
  };
}
