import { ASYNC_ACTOR_DEFAULTS, type AsyncActorSettings } from './asya/settings.ts';
import { ENGINE_DEFAULTS, type EngineSettings } from './engine/settings.ts';
import { MODEL_DEPLOYMENT_DEFAULTS, type ModelDeploymentSettings } from './model-deployment/settings.ts';

/**
 * The settings every workflow's input carries, as the watcher and the worker pass them: the engine's
 * (engine/settings.ts) and each kind's own, declared with the kind. One flat object, so inputs
 * recorded before the split decode as they are.
 */
export type ReconcileSettings = EngineSettings & ModelDeploymentSettings & AsyncActorSettings;

export const DEFAULT_SETTINGS: ReconcileSettings = { ...ENGINE_DEFAULTS, ...MODEL_DEPLOYMENT_DEFAULTS, ...ASYNC_ACTOR_DEFAULTS };
