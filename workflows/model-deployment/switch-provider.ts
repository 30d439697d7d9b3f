import type { Assessment, ConditionInput, CoreStatus } from '../../contract/core-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { PassState } from './pass-state.ts';
import { toMs } from '../engine/durations.ts';
import { stepError } from '../engine/step-error.ts';

/** What the pass knows that the switch needs: the status the core writes while it waits, and who serves the old provider. */
export interface SwitchContext {
  /** The core's status as the pass would write it when it stops before the provider (recorded provider, generation). */
  stopped: CoreStatus;
  validated: ConditionInput;
  /** The old provider's resource as status records it (`Kind ns/name`); undefined when it never recorded one. */
  resource: string | undefined;
  leaving: Assessment['leaving'];
}

/**
 * An explicit provider different from the selected one is an identity change: the old provider removes
 * its resources before the new one is recorded. The wait is bounded like a deletion's (the cleanup
 * deadline): an old provider with no worker, or a resource stuck in its own finalizer, cannot keep the
 * deployment from its new spec forever. At the deadline a ProviderSwitchTimeout event names what may be
 * left behind and the switch goes on. True when the old provider is out of the way.
 *
 * No wait when no worker serves the old provider and either none ever did (its InferenceProviderConfig
 * was never reported) or status records no resource of it: nobody could run its cleanup, and it would
 * find nothing we know of. The switch then goes on at once, with a ProviderSwitched event saying so.
 * Otherwise the deployment shows the wait while it lasts: phase Pending, ProviderSelected=False with
 * reason ProviderSwitching, and until when (docs/providers.md, "Switching providers").
 */
export async function leaveOldProvider(state: PassState, ref: ReadRef, old: string, next: string, ctx: SwitchContext): Promise<boolean> {
  state.at('switch-provider', `provider '${old}' to remove its resources`);
  const since = (state.switchSince ??= Date.now());
  const deadline = since + toMs(state.settings.cleanupTimeout);
  const leaving = ctx.leaving;
  if (leaving && !leaving.served && (!leaving.reported || !ctx.resource)) {
    const why = leaving.reported ? `no worker serves provider '${old}' now and status records no resource of it` : `no worker has ever served provider '${old}' (its InferenceProviderConfig was never reported by a worker)`;
    await state.core.recordEvent(ref, { type: 'Normal', reason: 'ProviderSwitched', message: `Switching from provider '${old}' to '${next}' without its cleanup: ${why}` });
    state.switchSince = undefined;
    return true;
  }
  const show = async (detail?: string) => {
    const unserved = leaving && !leaving.served ? `; no worker serves '${old}' now` : '';
    const message = `Switching from provider '${old}' to '${next}': waiting for '${old}' to remove its resources${unserved}${detail ? ` (${detail})` : ''}, at most until ${new Date(deadline).toISOString()}`;
    state.view.phase = 'Pending';
    state.view.message = message;
    await state.writeCore({ ...ctx.stopped, validated: ctx.validated, providerSelected: { status: 'False', reason: 'ProviderSwitching', message }, phase: { phase: 'Pending', message } });
  };
  await show();
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
    if (Date.now() < deadline) await show(`${why.type}: ${why.message}`);
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
