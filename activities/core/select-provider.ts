import { events } from '../../api/messages.ts';
import type { CoreActivities } from '../../contract/core-activities.ts';
import { withStaleProvidersNotReady } from '../../providers/provider-configs.ts';
import { withRuleErrors } from '../../providers/rule-errors.ts';
import { selectProvider as select } from '../../providers/selection.ts';
import { involved } from '../deployment-ref.ts';
import type { CoreClients } from './core-clients.ts';
import { ruleErrorReporter } from './rule-error-report.ts';

/** Chooses a provider among the live ones. A failing rule counts as not matching; it is reported on the deployment and the provider config. */
export function selectProvider(core: CoreClients): CoreActivities['selectProvider'] {
  const { objects, recorder } = core.deployments;
  const ruleErrors = ruleErrorReporter(objects, recorder);
  return async function selectProvider(ref, input) {
    const md = await core.deployments.read(ref);
    if (!md) return { provider: undefined, reason: 'NotFound', message: 'ModelDeployment no longer exists', rejected: [] };
    const configs = withStaleProvidersNotReady(await core.providerConfigs.list(), Date.now(), core.staleAfterMs);
    const result = select(md, configs, { selectorEnabled: input.selectorEnabled });
    ruleErrors.report(involved(ref), md, configs, result.ruleErrors);
    if (!result.selected) {
      const reason = input.selectorEnabled ? 'NoHealthyProvider' : 'NoProvider';
      const message = result.error === undefined ? undefined : withRuleErrors(result.error, result.ruleErrors);
      return { provider: undefined, reason, message, rejected: result.rejected };
    }
    recorder.post(involved(ref), events.providerSelected(result.selected.name, result.selected.reason));
    return { provider: result.selected.name, reason: result.selected.reason, message: undefined, rejected: result.rejected };
  };
}
