// Fixed texts the seed gives for events (seed 001 §9), condition messages (§4.1 status example) and
// selection outcomes (§3.5.2). Kept in one place so every writer uses the same words.

import { EventReason, EventType } from './constants.ts';

export interface EventSpec {
  type: EventType;
  reason: EventReason;
  message: string;
}

export const events = {
  providerSelected: (provider: string, reason: string): EventSpec => ({
    type: EventType.Normal,
    reason: EventReason.ProviderSelected,
    message: `Selected provider '${provider}': ${reason}`,
  }),
  resourceCreated: (kind: string, name: string): EventSpec => ({
    type: EventType.Normal,
    reason: EventReason.ResourceCreated,
    message: `Created ${kind} '${name}'`,
  }),
  secretNotFound: (secret: string, namespace: string): EventSpec => ({
    type: EventType.Warning,
    reason: EventReason.SecretNotFound,
    message: `Secret '${secret}' not found in namespace '${namespace}'`,
  }),
  providerError: (detail: string): EventSpec => ({
    type: EventType.Warning,
    reason: EventReason.ProviderError,
    message: `Provider resource in error state: ${detail}`,
  }),
  driftDetected: (): EventSpec => ({
    type: EventType.Warning,
    reason: EventReason.DriftDetected,
    message: 'Provider resource was modified directly, reconciling',
  }),
  // Beyond the seed: validation's warnings (an admitted spec part of which cannot work), once per generation.
  specWarnings: (warnings: readonly string[]): EventSpec => ({
    type: EventType.Warning,
    reason: EventReason.SpecWarning,
    message: `Spec admitted with warnings: ${warnings.join('; ')}`,
  }),
  finalizerTimeout: (): EventSpec => ({
    type: EventType.Warning,
    reason: EventReason.FinalizerTimeout,
    message: 'Finalizer removed after timeout, provider resource may be orphaned',
  }),
} as const;

export const conditionMessages = {
  validationPassed: 'Schema validation passed',
  providerAutoSelected: (provider: string): string => `Provider ${provider} auto-selected`,
  compatibilityVerified: (providerDisplayName: string): string => `Configuration compatible with ${providerDisplayName}`,
  resourceCreated: (kind: string): string => `${kind} created successfully`,
  deploymentReady: 'All replicas are ready',
} as const;

export const selectionMessages = {
  /** status.provider.selectedReason when the user named the provider. */
  explicit: 'explicit provider selection',
  /** Selector disabled and no provider named (§3.5.2). */
  selectorDisabled: 'No provider specified and provider-selector not installed',
  /** Every InferenceProviderConfig reports ready: false (§3.5.2). */
  noHealthyProviders: 'No healthy providers available',
  /** selectedReason of an auto-selection (§3.9 examples). */
  matchedCapabilities: (engine: string, gpu: boolean, mode: string): string =>
    `matched capabilities: engine=${engine}, gpu=${gpu}, mode=${mode}`,
} as const;
