import { FINALIZER, PAUSE_ANNOTATION } from '../../api/constants.ts';
import type { ModelDeployment } from '../../api/types.ts';
import type { ConditionInput, CoreActivities } from '../../contract/core-activities.ts';
import type { CoreClients } from './core-clients.ts';

function conditionInput(md: ModelDeployment, type: string): ConditionInput | undefined {
  const c = md.status?.conditions?.find((x) => x.type === type);
  return c ? { status: c.status, reason: c.reason ?? '', message: c.message ?? '' } : undefined;
}

/** What the workflow decides a pass on: the deployment's metadata, its selection and the core's two conditions; null when it is gone. */
export function readDeployment(core: CoreClients): CoreActivities['readDeployment'] {
  return async function readDeployment(ref) {
    const md = await core.deployments.read(ref);
    if (!md) return null;
    const selected = md.status?.provider;
    return {
      uid: md.metadata.uid ?? '',
      generation: md.metadata.generation ?? 0,
      deletionTimestamp: md.metadata.deletionTimestamp,
      resourceVersion: md.metadata.resourceVersion ?? '',
      hasFinalizer: (md.metadata.finalizers ?? []).includes(FINALIZER),
      paused: md.metadata.annotations?.[PAUSE_ANNOTATION] === 'true',
      explicitProvider: md.spec?.provider?.name || undefined,
      selectedProvider: selected?.name || undefined,
      selectedReason: selected?.selectedReason || undefined,
      resource: selected?.resourceKind && selected.resourceName ? `${selected.resourceKind} ${ref.namespace}/${selected.resourceName}` : undefined,
      validated: conditionInput(md, 'Validated'),
      providerSelected: conditionInput(md, 'ProviderSelected'),
    };
  };
}
