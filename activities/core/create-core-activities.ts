import type { KubeConfig } from '@kubernetes/client-node';
import { API_VERSION, CONTROLLER_FIELD_MANAGER, FINALIZER, MODEL_DEPLOYMENT_KIND, PAUSE_ANNOTATION } from '../../api/constants.ts';
import { events } from '../../api/messages.ts';
import type { InferenceProviderConfig, Issue, ModelDeployment } from '../../api/types.ts';
import { validate } from '../../api/validate.ts';
import { isKubeError, kubeCall, toActivityFailure } from '../../kube/errors.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { secretExists } from '../../kube/secret-exists.ts';
import { selectProvider } from '../../providers/selection.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import { involved, MODEL_DEPLOYMENT, modelDeploymentResource, PROVIDER_CONFIG } from '../deployment-ref.ts';
import { KindClient } from '../kind/kind-client.ts';
import { withTransitionTimes, type DesiredCondition } from '../status/conditions.ts';
import { kubeNow } from '../../kube/time.ts';
import { crdMissingCorrection } from '../status/crd-missing-status.ts';
import { awaitingProviderPhase } from '../status/awaiting-provider.ts';
import type { Assessment, ConditionInput, CoreActivities, CoreStatus, DeploymentSnapshot, EventInput, SelectionOutcome, ValidationOutcome } from '../../contract/core-activities.ts';
import { installedProviderCrds, unreportedProviders, withStaleProvidersNotReady } from '../../providers/provider-configs.ts';
import { PROVIDER_STALE_AFTER_MS } from '../../providers/provider-liveness.ts';
import { BoundedMap } from '../../kube/bounded-map.ts';
import { ruleErrorReporter } from './rule-error-report.ts';
import { withRuleErrors } from '../../providers/rule-errors.ts';

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

function conditionInput(md: ModelDeployment, type: string): ConditionInput | undefined {
  const c = md.status?.conditions?.find((x) => x.type === type);
  return c ? { status: c.status, reason: c.reason ?? '', message: c.message ?? '' } : undefined;
}

export interface CoreActivityDeps {
  kc: KubeConfig;
  /** The process's shared informers: reads come from their caches when those can answer. */
  informers?: InformerSet;
  /** A provider whose heartbeat is older than this counts as not ready (it may have crashed without saying so). */
  providerStaleAfterMs?: number;
  /** Providers whose workers run in this process (see Assessment.inProcessProviders). */
  inProcessProviders?: readonly string[];
}

/** The core controller's side effects. The core knows no provider: it reads InferenceProviderConfigs only. */
export function createCoreActivities(deps: CoreActivityDeps): CoreActivities {
  const deployments = new KindClient<ModelDeployment>(MODEL_DEPLOYMENT, { kc: deps.kc, informers: deps.informers, fieldManager: CONTROLLER_FIELD_MANAGER });
  const { objects, recorder } = deployments;
  const ruleErrors = ruleErrorReporter(objects, recorder);
  const staleAfter = deps.providerStaleAfterMs ?? PROVIDER_STALE_AFTER_MS;

  const live = (ref: ReadRef, fresh = false): Promise<ModelDeployment | undefined> => deployments.read(ref, fresh);

  const providerConfigs = new KindClient<InferenceProviderConfig>(PROVIDER_CONFIG, { kc: deps.kc, informers: deps.informers, fieldManager: CONTROLLER_FIELD_MANAGER, objects });
  const listProviderConfigs = (): Promise<InferenceProviderConfig[]> => providerConfigs.list();

  // A missing Secret is reported once per spec generation: the check is a GET (no watch: the
  // controller may not enumerate Secrets), and a pass re-run for any other reason need not repeat it.
  const secretsChecked = new BoundedMap<string, true>(10_000);
  const warningsReported = new BoundedMap<string, true>(10_000);


  /** Whether `provider`'s worker reports its CRD missing (a provider nobody reported on says nothing about a CRD). */
  const providerCrdMissing = async (provider: string | undefined): Promise<boolean> => {
    if (!provider) return false;
    const config = (await listProviderConfigs()).find((c) => c.metadata.name === provider);
    return config !== undefined && unreportedProviders([config]).length === 0 && installedProviderCrds([config]).length === 0;
  };

  /** Whether a worker serves `provider` (see Assessment.leaving): the switch need not wait for a cleanup nobody can run. */
  const leavingProvider = async (provider: string): Promise<NonNullable<Assessment['leaving']>> => {
    const configs = await listProviderConfigs();
    const config = withStaleProvidersNotReady(configs, Date.now(), staleAfter).find((c) => c.metadata.name === provider);
    return { provider, reported: config !== undefined && unreportedProviders([config]).length === 0, served: config?.status?.ready === true };
  };

  const activities: CoreActivities = {
    async readDeployment(ref): Promise<DeploymentSnapshot | null> {
      const md = await live(ref);
      if (!md) return null;
      return {
        uid: md.metadata.uid ?? '',
        generation: md.metadata.generation ?? 0,
        deletionTimestamp: md.metadata.deletionTimestamp,
        resourceVersion: md.metadata.resourceVersion ?? '',
        hasFinalizer: (md.metadata.finalizers ?? []).includes(FINALIZER),
        paused: md.metadata.annotations?.[PAUSE_ANNOTATION] === 'true',
        explicitProvider: md.spec?.provider?.name || undefined,
        selectedProvider: md.status?.provider?.name || undefined,
        selectedReason: md.status?.provider?.selectedReason || undefined,
        resource: md.status?.provider?.resourceKind && md.status.provider.resourceName ? `${md.status.provider.resourceKind} ${ref.namespace}/${md.status.provider.resourceName}` : undefined,
        validated: conditionInput(md, 'Validated'),
        providerSelected: conditionInput(md, 'ProviderSelected'),
      };
    },

    async addFinalizer(ref) {
      // Guarded by the list it edits, re-read and tried again when someone else won (kube/finalizers.ts):
      // status writes bump the object all the time.
      await deployments.setFinalizer(ref, FINALIZER, true);
    },

    async removeFinalizer(ref) {
      await deployments.setFinalizer(ref, FINALIZER, false);
    },

    async validateDeployment(ref): Promise<ValidationOutcome> {
      const md = await live(ref);
      if (!md) return { valid: true, message: undefined, warnings: [] };
      const provider = md.spec?.provider?.name || md.status?.provider?.name || undefined;
      const configs = provider ? await listProviderConfigs() : [];
      const registered = configs.map((c) => c.metadata.name ?? '');
      const result = validate(md.spec, {
        name: md.metadata.name,
        selectedProvider: md.status?.provider?.name,
        ...(provider ? { installedProviderCRDs: installedProviderCrds(configs), registeredProviders: registered, unreportedProviders: unreportedProviders(configs) } : {}),
      });
      const secret = md.spec?.secrets?.huggingFaceToken;
      const checkKey = `${ref.uid}/${md.metadata.generation}/${secret}`;
      if (secret && !secretsChecked.has(checkKey)) {
        if (!(await kubeCall('check Secret', () => secretExists(deps.kc, ref.namespace, secret)))) {
          recorder.post(involved(ref), events.secretNotFound(secret, ref.namespace));
        }
        secretsChecked.set(checkKey, true);
      }
      const messages = [...new Set(result.errors.map((e) => e.message))];
      const warnings = [...new Set(result.warnings.map((w) => w.message))];
      // Once per generation: what admission said as warnings (if the webhook ran at all) is also an event.
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
    },

    async selectProvider(ref, input): Promise<SelectionOutcome> {
      const md = await live(ref);
      if (!md) return { provider: undefined, reason: 'NotFound', message: 'ModelDeployment no longer exists', rejected: [] };
      const configs = withStaleProvidersNotReady(await listProviderConfigs(), Date.now(), staleAfter);
      const result = selectProvider(md, configs, { selectorEnabled: input.selectorEnabled });
      // A failing rule counts as not matching; it is reported on the deployment and the provider config.
      ruleErrors.report(involved(ref), md, configs, result.ruleErrors);
      if (!result.selected) {
        const reason = input.selectorEnabled ? 'NoHealthyProvider' : 'NoProvider';
        const message = result.error === undefined ? undefined : withRuleErrors(result.error, result.ruleErrors);
        return { provider: undefined, reason, message, rejected: result.rejected };
      }
      recorder.post(involved(ref), events.providerSelected(result.selected.name, result.selected.reason));
      return { provider: result.selected.name, reason: result.selected.reason, message: undefined, rejected: result.rejected };
    },

    async writeCoreStatus(ref, status: CoreStatus) {
      const md = await live(ref);
      if (!md) return;
      const desired: DesiredCondition[] = [];
      if (status.validated) desired.push({ type: 'Validated', ...status.validated });
      if (status.providerSelected) desired.push({ type: 'ProviderSelected', ...status.providerSelected });
      if (status.paused) desired.push({ type: 'ReconcilePaused', ...status.paused });
      const phase = awaitingProviderPhase(md.status, status);
      const body = {
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
      let stored = await deployments.writeStatus(ref, body);
      const provider = md.status?.provider?.name;
      if (status.phase && provider && (await providerCrdMissing(provider))) {
        // The CRD's removal deleted the provider's resource, and the provider is not called while the
        // core waits for the CRD: its replica counts and ResourceCreated/Ready conditions would still
        // claim a working resource (activities/status/crd-missing-status.ts). Patched on the object as
        // just stored (the conditions list is replaced whole), guarded by its resourceVersion; a write
        // in between (the provider's, a user's) is read again and judged afresh.
        for (let attempt = 1; ; attempt++) {
          const correction = crdMissingCorrection(stored?.status, provider, kubeNow());
          if (!correction) break;
          try {
            await objects.mergePatchStatus(modelDeploymentResource(ref), { metadata: { resourceVersion: stored.metadata.resourceVersion }, status: correction });
            break;
          } catch (err) {
            if (!isKubeError(err, 'Conflict') || attempt >= 3) throw toActivityFailure(err, 'write status of a missing CRD');
            const fresh = await live(ref, true);
            if (!fresh) break;
            stored = fresh;
          }
        }
      }
    },

    async recordEvent(ref, event: EventInput) {
      await kubeCall('record event', () => recorder.record(involved(ref), event));
    },
    async assessDeployment(ref, input): Promise<Assessment> {
      const snapshot = await activities.readDeployment(ref);
      const local = deps.inProcessProviders?.length ? { inProcessProviders: [...deps.inProcessProviders] } : {};
      // A deletion's cleanup needs them too: a run whose first pass finds the object deleting (continued
      // as new, or started by a watcher that restarted) would otherwise send it to the provider's queue.
      if (!snapshot || snapshot.deletionTimestamp || snapshot.paused) return { snapshot, finalizerAdded: false, ...local };
      const seen: ReadRef = { ...ref, seenVersion: snapshot.resourceVersion || ref.seenVersion };
      // The finalizer's write and validation's reads (the Secret's existence is a GET) do not depend on
      // each other: one round trip on the way to the provider resource instead of two.
      const [, validation] = await Promise.all([snapshot.hasFinalizer ? undefined : activities.addFinalizer(seen), activities.validateDeployment(seen)]);
      const switching = snapshot.selectedProvider && snapshot.explicitProvider && snapshot.explicitProvider !== snapshot.selectedProvider;
      const selection = validation.valid && !snapshot.selectedProvider && !switching ? await activities.selectProvider(seen, input) : undefined;
      const leaving = switching ? await leavingProvider(snapshot.selectedProvider!) : undefined;
      return { snapshot, finalizerAdded: !snapshot.hasFinalizer, validation, ...(selection ? { selection } : {}), ...(leaving ? { leaving } : {}), ...local };
    },
  };
  return activities;
}
