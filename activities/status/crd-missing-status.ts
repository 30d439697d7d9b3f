// What a deployment shows while the core waits for its provider's CRD (pure).
//
// Removing a CRD deletes every resource of its kind, and while the CRD is missing the core waits
// without calling the provider (validation answers "Provider '{name}' CRD not installed in cluster"),
// so what the provider last wrote stays: ready replica counts, `ResourceCreated=True`, `Ready=True`
// beside a Pending phase. The core corrects those provider-owned fields to what is true now — no
// replica ready, no resource, not ready — by a merge patch outside its own server-side apply, so the
// provider's next apply (once the CRD is back) takes them back as its own, and a later apply of the
// provider that leaves a condition out still removes it.
import type { Condition, ModelDeploymentStatus } from '../../api/types.ts';
import { ValidationMessage } from '../../api/validation-messages.ts';
import { claimsReplicas, replicasWithoutResource } from './replicas-without-resource.ts';

/** The reason both conditions carry, as the provider writes it on `ResourceCreated` when it finds no CRD. */
export const CRD_NOT_INSTALLED = 'CRDNotInstalled';

/** Provider-owned conditions that claim a resource exists or works. */
const CLAIMS = ['ResourceCreated', 'Ready'] as const;

/**
 * The status fields to patch for a deployment whose provider `provider` has no CRD installed, or
 * undefined when the status already says nothing untrue. Conditions the status does not show are not
 * added (the phase and message say it already; a condition the provider never wrote is not ours to
 * keep alive). `conditions` is the whole list, as a merge patch replaces lists.
 */
export function crdMissingCorrection(status: ModelDeploymentStatus | undefined, provider: string, now: string): { replicas?: ReturnType<typeof replicasWithoutResource>; conditions?: Condition[] } | undefined {
  const message = ValidationMessage.providerCrdNotInstalled(provider);
  const conditions = status?.conditions ?? [];
  const untrue = (c: Condition) => (CLAIMS as readonly string[]).includes(c.type) && !(c.status === 'False' && c.reason === CRD_NOT_INSTALLED && c.message === message);
  const patch: { replicas?: ReturnType<typeof replicasWithoutResource>; conditions?: Condition[] } = {};
  if (claimsReplicas(status?.replicas)) patch.replicas = replicasWithoutResource(status?.replicas);
  if (conditions.some(untrue)) {
    patch.conditions = conditions.map((c) =>
      untrue(c) ? { ...c, status: 'False', reason: CRD_NOT_INSTALLED, message, lastTransitionTime: c.status === 'False' && c.lastTransitionTime ? c.lastTransitionTime : now } : c,
    );
  }
  return patch.replicas || patch.conditions ? patch : undefined;
}
