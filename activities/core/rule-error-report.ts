// Reports the selection rules that failed while selecting a provider for one ModelDeployment: a
// Warning event ProviderRuleError on the deployment per failing rule, and the RulesValid condition on
// each provider config concerned (rules-valid.ts). Both are written in the background, like the
// ProviderSelected event: a report that cannot be written (RBAC, API server busy) must not hold up or
// fail the selection, whose outcome already carries the failures in its `rejected` reasons.

import { API_VERSION, CONTROLLER_FIELD_MANAGER, PROVIDER_CONFIG_KIND } from '../../api/constants.ts';
import type { InferenceProviderConfig, ModelDeployment } from '../../api/types.ts';
import type { CustomObjects } from '../../kube/custom-objects.ts';
import { classifyKubeError } from '../../kube/errors.ts';
import type { EventRecorder, InvolvedObject } from '../../kube/events.ts';
import { ruleErrorEvent, type RuleError } from '../../providers/rule-errors.ts';
import { PROVIDER_CONFIGS } from '../../api/constants.ts';
import { kubeNow } from '../../kube/time.ts';
import { rulesValidUpdates } from './rules-valid.ts';

export interface RuleErrorReporter {
  report(deployment: InvolvedObject, md: ModelDeployment, configs: readonly InferenceProviderConfig[], errors: readonly RuleError[]): void;
}

export function ruleErrorReporter(objects: CustomObjects, recorder: EventRecorder, onDropped: (what: string, why: string) => void = defaultDropped): RuleErrorReporter {
  return {
    report(deployment, md, configs, errors) {
      for (const error of errors) recorder.post(deployment, ruleErrorEvent(error));
      for (const update of rulesValidUpdates(configs, errors, md.spec, kubeNow())) {
        const body = {
          apiVersion: API_VERSION,
          kind: PROVIDER_CONFIG_KIND,
          metadata: { name: update.provider, ...(update.resourceVersion ? { resourceVersion: update.resourceVersion } : {}) },
          status: { conditions: [update.condition] },
        };
        objects.applyStatus({ ...PROVIDER_CONFIGS, name: update.provider }, body, CONTROLLER_FIELD_MANAGER).catch((err: unknown) => {
          const k = classifyKubeError(err);
          // A clearing write that lost the race to a newer version is retried by the next selection.
          if (update.resourceVersion && k.type === 'Conflict') return;
          // A config deleted meanwhile has nothing left to report on.
          if (k.type === 'NotFound') return;
          onDropped(`${update.condition.type} condition of InferenceProviderConfig ${update.provider}`, k.detail);
        });
      }
    },
  };
}

function defaultDropped(what: string, why: string): void {
  process.stderr.write(`${what} not written: ${why}\n`);
}
