import type { EngineSettings } from '../engine/settings.ts';
import type { FailureType } from '../../contract/failure-types.ts';

/** ModelDeployment's own settings, beside the engine's (engine/settings.ts). */
export interface ModelDeploymentSettings {
  /** Whether the built-in provider selector runs (seed: `--enable-provider-selector`). */
  providerSelectorEnabled: boolean;
}

export const MODEL_DEPLOYMENT_DEFAULTS: ModelDeploymentSettings = {
  providerSelectorEnabled: true,
};

export function providerTaskQueue(settings: Pick<EngineSettings, 'taskQueuePrefix'>, provider: string): string {
  return `${settings.taskQueuePrefix}-provider-${provider}`;
}

/**
 * The activity type under which a core worker serves a provider running in its own process, e.g.
 * `dynamo:reconcileResource`: the workflow runs it as a local activity, no task queue in between.
 */
export function inProcessActivityType(provider: string, activity: string): string {
  return `${provider}:${activity}`;
}

/** The failure type of an activity a core worker does not serve (worker/core-worker.ts `notServed`); permanent in contract/failure-types.ts. */
export const NOT_SERVED = 'ActivityNotServed' satisfies FailureType;

/** The provider and activity of an in-process activity type; no provider for any other type. */
export function splitActivityType(type: string): { provider?: string; activity: string } {
  const at = type.indexOf(':');
  return at < 0 ? { activity: type } : { provider: type.slice(0, at), activity: type.slice(at + 1) };
}
