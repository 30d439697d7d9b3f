import { describe, expect, it } from 'vitest';
import type { ApplyOutcome } from '../contract/provider-activities.ts';
import { stepOutcome as readStep } from '../observability/step-outcome.ts';
import { STEP_OUTCOMES } from './index.ts';

/** What the registered modules' readers make of a step's result. */
const stepOutcome = (activity: string, result: unknown) => readStep(STEP_OUTCOMES, activity, result);

describe('stepOutcome', () => {
  it('learns the provider from readDeployment', () => {
    const o = stepOutcome('readDeployment', { uid: 'u', generation: 3, deletionTimestamp: undefined, hasFinalizer: true, paused: false, explicitProvider: undefined, selectedProvider: 'kaito', selectedReason: 'x' });
    expect(o.provider).toBe('kaito');
    expect(o.errorType).toBeUndefined();
    expect(o.fields).toEqual({ generation: 3, paused: false, deleting: false });
  });

  it('counts a selection with its provider and reason', () => {
    const o = stepOutcome('selectProvider', { provider: 'dynamo', reason: 'matched capabilities: engine=vllm, gpu=true, mode=aggregated', message: undefined, rejected: [] });
    expect(o.selected).toEqual({ provider: 'dynamo', reason: 'matched capabilities: engine=vllm, gpu=true, mode=aggregated' });
    expect(o.provider).toBe('dynamo');
    expect(o.summary).toBe("selected 'dynamo' (matched capabilities: engine=vllm, gpu=true, mode=aggregated)");
  });

  it('turns problems reported by successful steps into error types', () => {
    expect(stepOutcome('validateDeployment', { valid: false, message: 'engine.type is required', warnings: [] }).errorType).toBe('ValidationFailed');
    expect(stepOutcome('validateDeployment', { valid: true, message: undefined, warnings: [] }).errorType).toBeUndefined();
    expect(stepOutcome('selectProvider', { provider: undefined, reason: 'NoHealthyProvider', message: 'No healthy providers available', rejected: [] })).toMatchObject({
      errorType: 'NoHealthyProvider',
      summary: 'No healthy providers available',
    });
    const applied = (apply: ApplyOutcome) => stepOutcome('reconcileResource', { compatibility: { compatible: true, errors: [], warnings: [] }, apply, observed: { phase: 'Pending', message: undefined, ready: false } });
    expect(applied({ result: 'crd-missing', resource: undefined, identityChanges: [], warnings: [] }).errorType).toBe('CRDNotInstalled');
    expect(applied({ result: 'refused', resource: undefined, identityChanges: [], warnings: [], refusal: 'spec.x: field not declared in schema' })).toMatchObject({
      errorType: 'ResourceRefused',
      summary: 'spec.x: field not declared in schema',
    });
  });

  it('reads a combined reconcile as its three steps: the first problem speaks, the log keeps every field', () => {
    const created = { result: 'created' as const, resource: { apiVersion: 'nvidia.com/v1alpha1', kind: 'DynamoGraphDeployment', name: 'd' }, identityChanges: [], warnings: [] };
    const ok = stepOutcome('reconcileResource', { compatibility: { compatible: true, errors: [], warnings: [] }, apply: created, observed: { phase: 'Deploying', message: undefined, ready: false } });
    expect(ok.summary).toBe("created DynamoGraphDeployment 'd'; phase Deploying");
    expect(ok.fields).toEqual({ result: 'created', resource: "DynamoGraphDeployment 'd'", phase: 'Deploying', ready: false });
    const incompatible = stepOutcome('reconcileResource', {
      compatibility: { compatible: false, errors: ['KAITO does not support sglang engine'], warnings: [] },
      apply: undefined,
      observed: { phase: 'Failed', message: 'KAITO does not support sglang engine', ready: false },
    });
    expect(incompatible).toMatchObject({ errorType: 'IncompatibleConfiguration', summary: 'KAITO does not support sglang engine' });
    const failed = stepOutcome('reconcileResource', { compatibility: { compatible: true, errors: [], warnings: [] }, apply: { ...created, result: 'unchanged' }, observed: { phase: 'Failed', message: 'insufficient GPUs', ready: false } });
    expect(failed).toMatchObject({ errorType: 'ProviderError', summary: 'insufficient GPUs' });
  });

  it('reads an assessment as its steps: the selection is counted, an invalid spec is the error', () => {
    const snapshot = { uid: 'u', resourceVersion: '7', generation: 1, deletionTimestamp: undefined, hasFinalizer: false, paused: false, explicitProvider: undefined, selectedProvider: undefined, selectedReason: undefined, resource: undefined, validated: undefined, providerSelected: undefined };
    const selected = stepOutcome('assessDeployment', {
      snapshot,
      finalizerAdded: true,
      validation: { valid: true, message: undefined, warnings: [] },
      selection: { provider: 'dynamo', reason: 'matched capabilities: engine=vllm, gpu=true, mode=aggregated', message: undefined, rejected: [] },
    });
    expect(selected).toMatchObject({ provider: 'dynamo', selected: { provider: 'dynamo', reason: 'matched capabilities: engine=vllm, gpu=true, mode=aggregated' } });
    expect(selected.summary).toBe("finalizer added; selected 'dynamo' (matched capabilities: engine=vllm, gpu=true, mode=aggregated)");
    const invalid = stepOutcome('assessDeployment', { snapshot, finalizerAdded: false, validation: { valid: false, message: 'engine.type is required', warnings: [] } });
    expect(invalid).toMatchObject({ errorType: 'ValidationFailed', summary: 'engine.type is required' });
    expect(stepOutcome('assessDeployment', { snapshot: null, finalizerAdded: false }).summary).toBe('the deployment is gone');
  });

  it('has nothing to say about void results or unknown activities', () => {
    expect(stepOutcome('addFinalizer', undefined)).toEqual({ fields: {} });
    expect(stepOutcome('somethingElse', { a: 1 })).toEqual({ fields: {} });
  });

  it('describes FlameCluster steps: changes, waits, an invalid spec and a failed cluster', () => {
    expect(stepOutcome('applyFlameCluster', { found: true, generation: 2, configGeneration: 3, changes: ['created pod a-executor-manager-1'], waitingFor: 'pod a-session-manager to terminate' })).toMatchObject({
      summary: 'created pod a-executor-manager-1; waiting for pod a-session-manager to terminate',
      fields: { generation: 2, configGeneration: 3, changes: 1 },
    });
    expect(stepOutcome('applyFlameCluster', { found: true, changes: [] }).summary).toBe('nothing to change');
    expect(stepOutcome('applyFlameCluster', { found: true, invalid: 'spec.sessionManager.image: required', changes: [] })).toMatchObject({ errorType: 'InvalidSpec', summary: 'spec.sessionManager.image: required' });
    expect(stepOutcome('reportFlameStatus', { state: 'Failed', message: 'Session manager pod failed: crashed', executorManager: { ready: 0, replicas: 1 } })).toMatchObject({ errorType: 'FlameClusterFailed', summary: 'Session manager pod failed: crashed' });
    expect(stepOutcome('reportFlameStatus', { state: 'Running', message: 'All components healthy', executorManager: { ready: 2, replicas: 2 } })).toMatchObject({ summary: 'state Running: All components healthy', fields: { ready: 2, replicas: 2 } });
  });
});
