import { events } from '../../api/messages.ts';
import type { Issue, ModelDeployment } from '../../api/types.ts';
import { validate } from '../../api/validate.ts';
import type { CoreActivities } from '../../contract/core-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import { BoundedMap } from '../../kube/bounded-map.ts';
import { kubeCall } from '../../kube/errors.ts';
import { installedProviderCrds, unreportedProviders } from '../../providers/provider-configs.ts';
import { involved } from '../deployment-ref.ts';
import type { CoreClients } from './core-clients.ts';

/**
 * When the spec is fine and only its provider is missing (not registered, or its CRD not installed),
 * the deployment waits for that, not for "a valid spec": what `kar status` shows as awaited.
 */
function providerWait(provider: string, errors: readonly Issue[]): { waitingFor?: string } {
  if (errors.length !== 1) return {};
  switch (errors[0]!.awaits) {
    case 'ProviderCrd':
      return { waitingFor: `the CRD of provider '${provider}' to be installed` };
    case 'ProviderWorker':
      return { waitingFor: `a worker of provider '${provider}' to report in its InferenceProviderConfig` };
    case 'ProviderRegistration':
      return { waitingFor: `provider '${provider}' to register (an InferenceProviderConfig named '${provider}')` };
    default:
      return {};
  }
}

/** Validates the spec, against the registered providers' reports when it names (or has) one. */
async function validated(core: CoreClients, md: ModelDeployment, provider: string | undefined) {
  const configs = provider ? await core.providerConfigs.list() : [];
  return validate(md.spec, {
    name: md.metadata.name,
    selectedProvider: md.status?.provider?.name,
    ...(provider ? { installedProviderCRDs: installedProviderCrds(configs), registeredProviders: configs.map((c) => c.metadata.name ?? ''), unreportedProviders: unreportedProviders(configs) } : {}),
  });
}

/**
 * Validates the deployment's spec. A missing Secret and the spec's warnings are events, each once per
 * spec generation: the Secret check is a GET (no watch: the controller may not enumerate Secrets), and
 * what admission said as warnings (if the webhook ran at all) belongs in the event stream too.
 */
export function validateDeployment(core: CoreClients): CoreActivities['validateDeployment'] {
  const secretsChecked = new BoundedMap<string, true>(10_000);
  const warningsReported = new BoundedMap<string, true>(10_000);
  const { recorder } = core.deployments;

  const checkSecret = async (ref: ReadRef, md: ModelDeployment): Promise<void> => {
    const secret = md.spec?.secrets?.huggingFaceToken;
    if (!secret) return;
    const key = `${ref.uid}/${md.metadata.generation}/${secret}`;
    // Marked only once the check answered: a failed GET is asked again on the activity's retry.
    if (secretsChecked.has(key)) return;
    if (!(await kubeCall('check Secret', () => core.secretExists(ref.namespace, secret)))) recorder.post(involved(ref), events.secretNotFound(secret, ref.namespace));
    secretsChecked.set(key, true);
  };

  return async function validateDeployment(ref) {
    const md = await core.deployments.read(ref);
    if (!md) return { valid: true, message: undefined, warnings: [] };
    const provider = md.spec?.provider?.name || md.status?.provider?.name || undefined;
    const result = await validated(core, md, provider);
    await checkSecret(ref, md);
    const messages = [...new Set(result.errors.map((e) => e.message))];
    const warnings = [...new Set(result.warnings.map((w) => w.message))];
    const warnKey = `${ref.uid}/${md.metadata.generation}`;
    if (warnings.length > 0 && !warningsReported.has(warnKey)) {
      recorder.post(involved(ref), events.specWarnings(warnings));
      warningsReported.set(warnKey, true);
    }
    return {
      valid: messages.length === 0,
      message: messages.length > 0 ? messages.join('; ') : undefined,
      warnings,
      ...(provider ? providerWait(provider, result.errors) : {}),
    };
  };
}
