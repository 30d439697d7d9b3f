import type { ReadRef } from '../contract/object-ref.ts';
import type { DeploymentState } from './deployment-state.ts';
import { toMs } from './engine/durations.ts';
import { stepError } from './engine/step-error.ts';

/** Patch ID (see `DeploymentState.takes`): a provider switch waits at most the cleanup deadline for the old provider. */
const PROVIDER_SWITCH_DEADLINE = 'provider-switch-deadline';

/**
 * An explicit provider different from the selected one is an identity change: the old provider removes
 * its resources before the new one is recorded. The wait is bounded like a deletion's (the cleanup
 * deadline): an old provider with no worker, or a resource stuck in its own finalizer, cannot keep the
 * deployment from its new spec forever. At the deadline a ProviderSwitchTimeout event names what may be
 * left behind and the switch goes on. True when the old provider is out of the way.
 */
export async function leaveOldProvider(state: DeploymentState, ref: ReadRef, old: string, next: string): Promise<boolean> {
  state.at('switch-provider', `provider '${old}' to remove its resources`);
  if (!state.takes(PROVIDER_SWITCH_DEADLINE)) {
    // Histories recorded before the deadline: wait as long as it takes, failures fail the pass.
    return (await state.provider(old).cleanupResources(ref)).gone;
  }
  const since = (state.switchSince ??= Date.now());
  const deadline = since + toMs(state.settings.cleanupTimeout);
  let remaining = [`resources of provider '${old}'`];
  try {
    const result = await state.provider(old, Math.max(deadline - Date.now(), 1_000)).cleanupResources(ref);
    if (result.gone) {
      state.switchSince = undefined;
      return true;
    }
    if (result.remaining.length > 0) remaining = result.remaining;
  } catch (err) {
    // No worker for the old provider, or its cleanup failing: said in the view, bounded by the deadline.
    const why = stepError('switch-provider', err, `Provider '${old}'`);
    state.at('switch-provider', `provider '${old}' to remove its resources (${why.type}: ${why.message}), at most until ${new Date(deadline).toISOString()}`);
  }
  if (Date.now() < deadline) return false;
  await state.core.recordEvent(ref, {
    type: 'Warning',
    reason: 'ProviderSwitchTimeout',
    message: `Provider '${old}' did not remove its resources within ${state.settings.cleanupTimeout}; switching to '${next}' anyway, these may be orphaned: ${remaining.join(', ')}`,
  });
  state.switchSince = undefined;
  return true;
}
