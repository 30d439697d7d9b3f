/** AsyncActor's own settings, beside the engine's (engine/settings.ts). */
export interface AsyncActorSettings {
  /** Binding: the owner removed our containers for the n-th time; re-inject after n × this (seed 002: 5s). */
  conflictBackoff: string;
}

export const ASYNC_ACTOR_DEFAULTS: AsyncActorSettings = {
  conflictBackoff: '5s',
};
