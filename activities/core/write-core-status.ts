import { API_VERSION, MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import type { ModelDeployment } from '../../api/types.ts';
import type { CoreActivities, CoreStatus } from '../../contract/core-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import { isKubeError, toActivityFailure } from '../../kube/errors.ts';
import { kubeNow } from '../../kube/time.ts';
import { modelDeploymentResource } from '../deployment-ref.ts';
import { awaitingProviderPhase } from '../status/awaiting-provider.ts';
import { withTransitionTimes, type DesiredCondition } from '../status/conditions.ts';
import { crdMissingCorrection } from '../status/crd-missing-status.ts';
import type { CoreClients } from './core-clients.ts';
import { providerCrdMissing } from './provider-reports.ts';

/** Everything the core owns in status, as one server-side apply document (a field left out would be released). */
function coreStatusDocument(ref: ReadRef, md: ModelDeployment, status: CoreStatus) {
  const desired: DesiredCondition[] = [];
  if (status.validated) desired.push({ type: 'Validated', ...status.validated });
  if (status.providerSelected) desired.push({ type: 'ProviderSelected', ...status.providerSelected });
  if (status.paused) desired.push({ type: 'ReconcilePaused', ...status.paused });
  const phase = awaitingProviderPhase(md.status, status);
  return {
    apiVersion: API_VERSION,
    kind: MODEL_DEPLOYMENT_KIND,
    metadata: { name: ref.name, namespace: ref.namespace },
    status: {
      ...(status.observedGeneration !== undefined ? { observedGeneration: status.observedGeneration } : {}),
      ...(status.provider ? { provider: { name: status.provider.name, selectedReason: status.provider.selectedReason } } : {}),
      ...(phase ? { phase: phase.phase, message: phase.message } : {}),
      conditions: withTransitionTimes(md.status?.conditions, desired, kubeNow(), md.metadata.generation ?? 0),
    },
  };
}

/**
 * The CRD's removal deleted the provider's resource, and the provider is not called while the core
 * waits for the CRD: its replica counts and ResourceCreated/Ready conditions would still claim a working
 * resource (activities/status/crd-missing-status.ts). Patched on the object as just stored (the
 * conditions list is replaced whole), guarded by its resourceVersion; a write in between (the
 * provider's, a user's) is read again and judged afresh, up to three times.
 */
async function correctForMissingCrd(core: CoreClients, ref: ReadRef, provider: string, stored: ModelDeployment): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const correction = crdMissingCorrection(stored.status, provider, kubeNow());
    if (!correction) return;
    try {
      await core.deployments.objects.mergePatchStatus(modelDeploymentResource(ref), { metadata: { resourceVersion: stored.metadata.resourceVersion }, status: correction });
      return;
    } catch (err) {
      if (!isKubeError(err, 'Conflict') || attempt >= 3) throw toActivityFailure(err, 'write status of a missing CRD');
      const fresh = await core.deployments.read(ref, true);
      if (!fresh) return;
      stored = fresh;
    }
  }
}

/** Writes the core's part of status; with a phase, also takes back what a provider's deleted resource still claims. */
export function writeCoreStatus(core: CoreClients): CoreActivities['writeCoreStatus'] {
  return async function writeCoreStatus(ref, status) {
    const md = await core.deployments.read(ref);
    if (!md) return;
    const stored = await core.deployments.writeStatus(ref, coreStatusDocument(ref, md, status));
    const provider = md.status?.provider?.name;
    if (status.phase && provider && (await providerCrdMissing(core, provider))) await correctForMissingCrd(core, ref, provider, stored);
  };
}
