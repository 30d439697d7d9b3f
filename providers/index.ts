// Public entry of providers/: the built-in provider definitions, lookup, selection and the contract
// types. Other modules import from here only.

import type { ProviderDefinition } from './contract.ts';
import { deploymentProvider } from './deployment/index.ts';
import { dynamoProvider } from './dynamo/index.ts';
import { kaitoProvider } from './kaito/index.ts';
import { kuberayProvider } from './kuberay/index.ts';

export type {
  CompatibilityResult,
  KubernetesObject,
  ObjectMetaOut,
  OwnedKind,
  OwnerReferenceOut,
  ProviderDefinition,
  ProviderResourceType,
  RelatedObjects,
  RenderContext,
  RenderResult,
  UnifiedCondition,
  UnifiedEndpoint,
  UnifiedReplicas,
  UnifiedStatus,
} from './contract.ts';
export type { ProviderChoice, SelectionOptions, SelectionResult } from './selection.ts';
export { selectProvider } from './selection.ts';
export { describeRuleError, PROVIDER_RULE_ERROR_REASON, ruleErrorEvent, selectionRuleCompileErrors, withRuleErrors, type RuleError } from './rule-errors.ts';
export { chooseApiVersion, UnsupportedApiVersionError } from './shared/api-version.ts';
export type { VersionChoice } from './shared/api-version.ts';
export { canonicalize, stableStringify } from './shared/canonical.ts';
export { compatibilityMessages } from './shared/capability-check.ts';
export { ENGINE_TYPE_LABEL, MODEL_DEPLOYMENT_LABEL, ownedObjectSelector } from './shared/metadata.ts';
export { kaitoProvider, dynamoProvider, kuberayProvider, deploymentProvider };

/** The built-in providers, in name order. */
export const builtinProviders: readonly ProviderDefinition[] = Object.freeze([deploymentProvider, dynamoProvider, kaitoProvider, kuberayProvider]);

export function findProvider(name: string): ProviderDefinition | undefined {
  return builtinProviders.find((p) => p.name === name);
}
