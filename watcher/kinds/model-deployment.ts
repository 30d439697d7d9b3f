import { EventReason, FINALIZER, GROUP, MODEL_DEPLOYMENT_KIND, MODEL_DEPLOYMENT_PLURAL, PROVIDER_CONFIG_PLURAL, VERSION } from '../../api/constants.ts';
import type { ModelDeployment } from '../../api/types.ts';
import { deploymentFingerprint, providerConfigFingerprint } from '../fingerprint.ts';
import type { WatchedKind } from '../watched-kind.ts';
import { kindIdentity } from './kind-identity.ts';

/**
 * ModelDeployments: their workflows start from their own events; InferenceProviderConfig changes wake
 * deployments still waiting for a provider (or on the one that changed); CRD changes wake deployments
 * waiting for one. Their provider resources are children too, but watched by each provider's process
 * (the CRD version is the provider's to detect): see `watcher/provider-resource-watch.ts`.
 */
export const modelDeploymentKind: WatchedKind = {
  ...kindIdentity(MODEL_DEPLOYMENT_KIND, 'modelDeploymentWorkflow', { group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL }, 'md'),
  fingerprint: deploymentFingerprint,
  isNew: (md) => !md.metadata?.finalizers?.includes(FINALIZER),
  related({ watch, wakeWhere }) {
    const status = (o: unknown) => (o as ModelDeployment).status;
    // A deployment whose provider resource the CRD refused (activities/provider/refusal.ts) may fit a changed CRD.
    const refused = (o: unknown) => status(o)?.conditions?.some((c) => c.type === 'ResourceCreated' && c.reason === EventReason.ResourceRefused) ?? false;
    const configs = new Map<string, string>();
    watch('InferenceProviderConfig', { group: GROUP, version: VERSION, plural: PROVIDER_CONFIG_PLURAL }, {
      upsert: (config) => {
        const name = config.metadata?.name ?? '';
        const fingerprint = providerConfigFingerprint(config);
        if (configs.get(name) === fingerprint) return;
        configs.set(name, fingerprint);
        wakeWhere(`provider config ${name} changed`, (md) => !status(md)?.provider?.name || status(md)?.provider?.name === name);
      },
      remove: (config) => configs.delete(config.metadata?.name ?? ''),
    });
    // A deployment waiting in validation for its provider's CRD is woken by the provider config's change
    // above: its provider writes `upstreamCRDVersion` as soon as its watch of the CRD sees it change
    // (worker/registration.ts), so that wake-up comes after the status the validation reads. This one
    // serves the provider's own check (in reconcileResource), which reads the CRD itself.
    watch('CustomResourceDefinition', { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' }, {
      upsert: (crd) => wakeWhere(`CRD ${crd.metadata?.name} changed`, (md) => status(md)?.phase === 'Pending' || status(md)?.phase === undefined || refused(md)),
    });
  },
};
