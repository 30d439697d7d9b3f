import { describe, expect, it } from 'vitest';
import { deadLetterQueueName, formatTarget, queueName } from './constants.ts';
import { modeOf } from './mode.ts';
import { actorObject, bindingSpec, standaloneSpec } from './testing.ts';
import { validateAsyncActor } from './validate.ts';

type Json = Record<string, unknown>;

const errorsOf = (object: unknown) => {
  const result = validateAsyncActor(object);
  return result.valid ? [] : result.errors;
};

describe('validateAsyncActor: a valid actor comes back as the API server stores it', () => {
  it('standalone: defaults filled in, unknown fields dropped, the template kept as given', () => {
    const spec = { ...standaloneSpec(), scaling: { enabled: true }, extra: 1 };
    const result = validateAsyncActor(actorObject(spec));
    expect(result.valid).toBe(true);
    if (!result.valid) return;
    expect(result.actor).toEqual({
      apiVersion: 'asya.sh/v1alpha1',
      kind: 'AsyncActor',
      metadata: { name: 'text-processor', namespace: 'ml', uid: '0b5c8a1e-3d4f-4e6a-9b7c-2a1d3e4f5a6b', generation: 3 },
      spec: {
        transport: 'rabbitmq',
        timeout: { processing: 300, gracefulShutdown: 30 },
        scaling: { enabled: true, minReplicas: 0, maxReplicas: 50, pollingInterval: 10, cooldownPeriod: 60, queueLength: 5 },
        workload: { kind: 'Deployment', replicas: 1, pythonExecutable: 'python3', template: (standaloneSpec().workload as Json).template },
      },
    });
    expect(modeOf(result.actor.spec)).toBe('Standalone');
  });

  it('binding: runtime defaults (image, python, protocol)', () => {
    const spec = bindingSpec();
    delete (spec.runtime as Json).image;
    const result = validateAsyncActor(actorObject(spec, { name: 'phi3-async' }));
    expect(result.valid).toBe(true);
    if (!result.valid) return;
    expect(result.actor.spec.runtime).toEqual({
      targetService: { name: 'phi-3-embeddings', port: 80, protocol: 'http', path: '/v1/chat/completions' },
      image: 'asya-rest-adapter:latest',
      handler: 'adapters.kaito_openai.forward',
      pythonExecutable: 'python3',
    });
    expect(result.actor.spec.workloadRef).toEqual({ apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', name: 'phi-3-embeddings' });
    expect(modeOf(result.actor.spec)).toBe('Binding');
  });

  it('a well-typed status is kept field by field; malformed fields and conditions are dropped, never an error', () => {
    const object = {
      ...actorObject(standaloneSpec()),
      status: {
        mode: 'Standalone',
        resolvedTarget: 'Deployment/ml/text-processor',
        readyReplicas: 2,
        replicas: -1,
        status: 'Running',
        conditions: [{ type: 'WorkloadReady', status: 'True', reason: 'Ready' }, { type: 'X', status: 'maybe' }, 'junk'],
        observedGeneration: 3,
      },
    };
    const result = validateAsyncActor(object);
    expect(result.valid && result.actor.status).toEqual({
      mode: 'Standalone',
      resolvedTarget: 'Deployment/ml/text-processor',
      readyReplicas: 2,
      status: 'Running',
      conditions: [{ type: 'WorkloadReady', status: 'True', reason: 'Ready' }],
      observedGeneration: 3,
    });
  });
});

describe('validateAsyncActor: messages name the field', () => {
  it('the CEL rules, in their own words', () => {
    // Both rules fail, as they would at admission.
    expect(errorsOf(actorObject({ ...standaloneSpec(), workloadRef: bindingSpec().workloadRef }))).toEqual([
      { field: 'spec', message: "Exactly one of 'workload' or 'workloadRef' must be set" },
      { field: 'spec.runtime', message: "'runtime' is required when 'workloadRef' is set" },
    ]);
    const { runtime: _runtime, ...unbound } = bindingSpec();
    expect(errorsOf(actorObject(unbound))).toEqual([{ field: 'spec.runtime', message: "'runtime' is required when 'workloadRef' is set" }]);
    expect(errorsOf(actorObject({ ...standaloneSpec(), runtime: bindingSpec().runtime }))).toEqual([
      { field: 'spec.runtime', message: "'runtime' must not be set with 'workload'" },
    ]);
  });

  it('a user container named asya-sidecar, for WorkloadReady=False/ValidationError', () => {
    const spec = standaloneSpec();
    const pod = ((spec.workload as Json).template as Json).spec as { containers: Json[] };
    pod.containers.push({ name: 'asya-sidecar', image: 'mine' });
    const result = validateAsyncActor(actorObject(spec));
    expect(result).toEqual({
      valid: false,
      errors: [{ field: 'spec.workload.template.spec.containers[1].name', message: "'asya-sidecar' is reserved for the sidecar the controller adds" }],
      message: "spec.workload.template.spec.containers[1].name: 'asya-sidecar' is reserved for the sidecar the controller adds",
    });
  });

  it('a standalone template without the asya-runtime container', () => {
    const spec = standaloneSpec();
    (((spec.workload as Json).template as Json).spec as { containers: Json[] }).containers[0]!.name = 'main';
    expect(errorsOf(actorObject(spec))).toEqual([
      { field: 'spec.workload.template.spec.containers', message: "must hold exactly one container named 'asya-runtime' (the handler's), found 0" },
    ]);
  });

  it('reserved volume names and a command on asya-runtime', () => {
    const spec = standaloneSpec();
    const pod = ((spec.workload as Json).template as Json).spec as { containers: Json[]; volumes?: Json[] };
    pod.containers[0]!.command = ['python3', 'main.py'];
    pod.volumes = [{ name: 'data', emptyDir: {} }, { name: 'socket-dir', emptyDir: {} }];
    expect(errorsOf(actorObject(spec)).map((e) => e.field)).toEqual(['spec.workload.template.spec.containers[0].command', 'spec.workload.template.spec.volumes[1].name']);
  });

  it('a workloadRef into another namespace', () => {
    const spec = bindingSpec();
    (spec.workloadRef as Json).namespace = 'kaito';
    expect(errorsOf(actorObject(spec))).toEqual([
      {
        field: 'spec.workloadRef.namespace',
        message: `must be the AsyncActor's own namespace (ml), got "kaito": an actor binds only to workloads next to it`,
      },
    ]);
    // Offline, without a namespace, there is nothing to compare with.
    expect(errorsOf(actorObject(spec, { namespace: null }))).toEqual([]);
  });

  it('types, enums and bounds', () => {
    const spec: Json = { ...bindingSpec(), transport: 'kafka', scaling: { maxReplicas: 0, pollingInterval: '10' } };
    (spec.runtime as Json).targetService = { name: 'svc', port: 70000 };
    expect(errorsOf(actorObject(spec))).toEqual([
      { field: 'spec.transport', message: 'must be one of rabbitmq, sqs, got "kafka"' },
      { field: 'spec.scaling.maxReplicas', message: 'must be at least 1, got 0' },
      { field: 'spec.scaling.pollingInterval', message: 'must be an integer, got string' },
      { field: 'spec.runtime.targetService.port', message: 'must be at most 65535, got 70000' },
    ]);
  });

  it('the envelope', () => {
    expect(errorsOf('x')).toEqual([{ field: 'object', message: 'must be an AsyncActor object, got string' }]);
    const object = { ...actorObject(standaloneSpec()), apiVersion: 'v1', kind: 'Pod', metadata: { name: 'Bad' } };
    expect(errorsOf(object).map((e) => e.field)).toEqual(['apiVersion', 'kind', 'metadata.name']);
    expect(errorsOf({ ...object, apiVersion: 'asya.sh/v1alpha1', kind: 'AsyncActor', metadata: { name: 'ok' }, spec: undefined })).toEqual([{ field: 'spec', message: 'is required' }]);
  });

  it('is deterministic', () => {
    const object = actorObject(bindingSpec());
    expect(JSON.stringify(validateAsyncActor(object))).toBe(JSON.stringify(validateAsyncActor(structuredClone(object))));
  });
});

describe('names', () => {
  it('queues are asya-<actor> and asya-<actor>-dlq; targets print as Kind/namespace/name', () => {
    expect([queueName('text-processor'), deadLetterQueueName({ metadata: { name: 'text-processor' } })]).toEqual(['asya-text-processor', 'asya-text-processor-dlq']);
    expect(formatTarget({ kind: 'Deployment', namespace: 'ml', name: 'phi-3' })).toBe('Deployment/ml/phi-3');
  });
});
