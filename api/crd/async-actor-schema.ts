// The AsyncActor declaration (seed 002, research "Asya" 1a): the typed schema its spec types derive from
// (api/asya/types.ts), its validator interprets (api/schema/check.ts, CEL rules included) and
// deploy/crds/asya.sh_asyncactors.yaml serializes, so `kubectl apply` and the controller refuse a broken
// actor in the same words. What it cannot see (inside the pod template, metadata.namespace) only the
// validator's hand-written rules check.
//
// Rules are guarded with has(): a missing field is reported by `required` or another rule, never as a
// CEL "no such key" error. Defaults sit on `timeout` and `scaling` themselves ({}), so the API server
// fills in every nested default even when the user leaves the whole section out.

import { DEFAULT_RUNTIME, DEFAULT_SCALING, DEFAULT_TARGET_PROTOCOL, DEFAULT_TIMEOUT, DEFAULT_WORKLOAD } from '../asya/defaults.ts';
import { AsyncActorMessage } from '../asya/messages.ts';
import { ACTOR_NAME_PATTERN, MAX_ACTOR_NAME_LENGTH, TARGET_URL_PATTERN } from '../asya/patterns.ts';
import { DNS_LABEL_PATTERN, MAX_DNS_LABEL_LENGTH, MAX_OBJECT_NAME_LENGTH, MAX_SHORT_STRING, MAX_URL_LENGTH, NO_WHITESPACE_PATTERN, OBJECT_NAME_PATTERN, URL_PATH_PATTERN } from '../common/patterns.ts';
import { MODES, PULL_POLICIES, TARGET_PROTOCOLS, TRANSPORTS, WORKLOAD_KINDS, WORKLOAD_REF_KINDS } from '../asya/values.ts';
import { conditionsSchema, observedGenerationSchema, replicaRangeRule, resourcesSchema, rootSchema, statusSchema } from './common-schemas.ts';
import { bool, enumOf, image, int, port, str } from './field-schemas.ts';
import { freeObject, listOf, object, refined, type Extra } from '../schema/typed.ts';
import { checkPodTemplate } from '../asya/pod-template.ts';
import type { CelValidationRule, JSONSchemaProps } from './schema-types.ts';

const resources = (container: string) => resourcesSchema(`Resource requests and limits of the ${container} container, passed to the pod unchanged.`);

/** Names are unique (a list-map keyed by name), which also lets server-side apply merge entries by name. */
const env = (container: string) =>
  listOf(
    `Environment of the ${container} container, after the variables the controller sets.`,
    object(
      undefined,
      {
        name: str('Variable name.', { minLength: 1 }),
        value: str('Value.'),
        valueFrom: freeObject('A Kubernetes EnvVarSource, passed to the pod unchanged.'),
      },
      { required: ['name'], notThis: 'must be an object with a name' },
    ),
    { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], notThis: 'must be a list of {name, value} entries' },
  );

/** Image references and commands: no whitespace anywhere. */
const command = <const E extends Extra>(description: string, extra: E) => str(description, { minLength: 1, pattern: NO_WHITESPACE_PATTERN, what: 'a command without whitespace', ...extra });
const dnsLabel = (description: string, what = 'a DNS-1123 label') => str(description, { minLength: 1, maxLength: MAX_DNS_LABEL_LENGTH, pattern: DNS_LABEL_PATTERN, what });

const sidecarSchema = object('The asya-sidecar container, which moves messages between the queue and the runtime.', {
  image: image('Sidecar image; the controller default (asya-sidecar:latest) when omitted.'),
  imagePullPolicy: enumOf(PULL_POLICIES, 'Pull policy of the sidecar image; IfNotPresent when omitted.'),
  resources: resources('sidecar'),
  env: env('sidecar'),
});

const timeoutSchema = object(
  'Time limits.',
  {
    processing: int("Seconds one message may take (the sidecar's ASYA_RUNTIME_TIMEOUT).", 1, { default: DEFAULT_TIMEOUT.processing }),
    gracefulShutdown: int('Seconds a pod has to finish on shutdown (terminationGracePeriodSeconds).', 0, { default: DEFAULT_TIMEOUT.gracefulShutdown }),
  },
  { default: {} },
);

const scalingSchema = object(
  'Queue-driven autoscaling with a KEDA ScaledObject, down to zero.',
  {
    enabled: bool('Create the ScaledObject; without it the workload keeps workload.replicas.', { default: DEFAULT_SCALING.enabled }),
    minReplicas: int('Fewest replicas; 0 lets an idle actor scale to zero.', 0, { default: DEFAULT_SCALING.minReplicas }),
    maxReplicas: int('Most replicas.', 1, { default: DEFAULT_SCALING.maxReplicas }),
    pollingInterval: int("Seconds between KEDA's queue checks.", 1, { default: DEFAULT_SCALING.pollingInterval }),
    cooldownPeriod: int('Seconds after the last message before scaling to minReplicas.', 0, { default: DEFAULT_SCALING.cooldownPeriod }),
    queueLength: int('Target queued messages per replica.', 1, { default: DEFAULT_SCALING.queueLength }),
  },
  { default: {}, 'x-kubernetes-validations': [replicaRangeRule(AsyncActorMessage.scalingBounds)] },
);

const workloadSchema = object(
  'Standalone mode: the workload the controller creates, named after the actor.',
  {
    kind: enumOf(WORKLOAD_KINDS, 'Deployment or StatefulSet.', { default: DEFAULT_WORKLOAD.kind }),
    replicas: int('Replicas when scaling is disabled (KEDA owns the count otherwise).', 0, { default: DEFAULT_WORKLOAD.replicas }),
    pythonExecutable: command('Runs the runtime script in the asya-runtime container.', { default: DEFAULT_WORKLOAD.pythonExecutable }),
    template: refined(freeObject("A pod template (metadata, spec) with the handler's container, named asya-runtime; kept as given."), checkPodTemplate),
  },
  { required: ['template'] },
);

/** Which API versions go with which kind. */
const apiVersionRule: CelValidationRule = {
  rule:
    "!has(self.kind) || !has(self.apiVersion) || " +
    "((self.kind == 'Deployment' || self.kind == 'StatefulSet') ? self.apiVersion == 'apps/v1' : " +
    "self.kind == 'ModelDeployment' ? self.apiVersion == 'kubeairunway.ai/v1alpha1' : self.apiVersion.startsWith('kaito.sh/'))",
  message: AsyncActorMessage.workloadRefApiVersion,
  fieldPath: '.apiVersion',
  reason: 'FieldValueInvalid',
};

const workloadRefSchema = object(
  'Binding mode: an existing workload to add the runtime and sidecar to (a Workspace or ModelDeployment is resolved to the workload it runs).',
  {
    apiVersion: str('apps/v1, kaito.sh/<version> or kubeairunway.ai/v1alpha1.', { minLength: 1, maxLength: MAX_SHORT_STRING }),
    kind: enumOf(WORKLOAD_REF_KINDS, 'Deployment, StatefulSet, Workspace (KAITO) or ModelDeployment.'),
    name: str('Name of the workload.', { minLength: 1, maxLength: MAX_OBJECT_NAME_LENGTH, pattern: OBJECT_NAME_PATTERN, what: 'a DNS-1123 subdomain' }),
    namespace: dnsLabel("The actor's own namespace (the only one accepted); omit it."),
  },
  { required: ['apiVersion', 'kind', 'name'], 'x-kubernetes-validations': [apiVersionRule] },
);

const targetServiceSchema = object(
  'The server as a Service; the URL is <protocol>://<name>.<namespace>.svc.cluster.local:<port><path>.',
  {
    name: dnsLabel('Service name.', 'a Service name (DNS-1123 label)'),
    port: port('Service port.'),
    namespace: dnsLabel("Service namespace; the actor's when omitted."),
    protocol: enumOf(TARGET_PROTOCOLS, 'http or https.', { default: DEFAULT_TARGET_PROTOCOL }),
    path: str('Appended to the URL, e.g. /v1/chat/completions.', { maxLength: MAX_URL_LENGTH, pattern: URL_PATH_PATTERN, what: "a path starting with '/', without whitespace" }),
  },
  { required: ['name', 'port'] },
);

const runtimeSchema = object(
  'Binding mode: the asya-runtime container added next to the existing server, an adapter that forwards each message to it.',
  {
    targetURL: str('URL of the server the handler forwards to.', { maxLength: MAX_URL_LENGTH, pattern: TARGET_URL_PATTERN, what: 'an http:// or https:// URL' }),
    targetService: targetServiceSchema,
    image: image('Runtime (adapter) image.', { default: DEFAULT_RUNTIME.image }),
    handler: str('ASYA_HANDLER, e.g. adapters.kaito_openai.forward.', { minLength: 1, pattern: NO_WHITESPACE_PATTERN, what: 'a handler such as "package.module.function"' }),
    env: env('runtime'),
    resources: resources('runtime'),
    pythonExecutable: command('Runs the runtime script.', { default: DEFAULT_RUNTIME.pythonExecutable }),
  },
  { required: ['handler'] },
);

/** The seed's mutual exclusion and the rules that go with it, on spec. */
export const asyncActorSpecRules: CelValidationRule[] = [
  {
    // The seed's rule, word for word.
    rule: '(has(self.workload) && !has(self.workloadRef)) || (!has(self.workload) && has(self.workloadRef))',
    message: AsyncActorMessage.exactlyOneWorkload,
    reason: 'FieldValueInvalid',
  },
  { rule: '!has(self.workloadRef) || has(self.runtime)', message: AsyncActorMessage.runtimeRequired, fieldPath: '.runtime', reason: 'FieldValueRequired' },
  { rule: '!has(self.workload) || !has(self.runtime)', message: AsyncActorMessage.runtimeForbidden, fieldPath: '.runtime', reason: 'FieldValueForbidden' },
  {
    rule: '!has(self.runtime) || !(has(self.runtime.targetURL) && has(self.runtime.targetService))',
    message: AsyncActorMessage.oneTarget,
    fieldPath: '.runtime',
    reason: 'FieldValueInvalid',
  },
  {
    // A ModelDeployment names its server in status.endpoint, so the URL can be left to the controller.
    rule:
      "!has(self.runtime) || has(self.runtime.targetURL) || has(self.runtime.targetService) || " +
      "(has(self.workloadRef) && has(self.workloadRef.kind) && self.workloadRef.kind == 'ModelDeployment')",
    message: AsyncActorMessage.targetRequired,
    fieldPath: '.runtime',
    reason: 'FieldValueRequired',
  },
];

export const asyncActorSpecSchema = object(
  'An async actor: a queue, the sidecar that consumes it, the runtime that runs the handler, and optional KEDA scaling.',
  {
    transport: enumOf(TRANSPORTS, 'Message broker: rabbitmq or sqs. Its connection comes from the namespace (Secret and TriggerAuthentication asya-<transport>).'),
    sidecar: sidecarSchema,
    timeout: timeoutSchema,
    scaling: scalingSchema,
    workload: workloadSchema,
    workloadRef: workloadRefSchema,
    runtime: runtimeSchema,
  },
  { required: ['transport'], 'x-kubernetes-validations': asyncActorSpecRules },
);

export const asyncActorStatusSchema = statusSchema({
  mode: str('Standalone or Binding.', { enum: [...MODES] }),
  resolvedTarget: str('The workload that runs the actor, Kind/namespace/name.'),
  runtimeInjected: { type: 'boolean', description: 'Binding mode: whether the runtime and sidecar are in the target workload.' },
  conflictCount: int('Binding mode: times the injected containers were removed by the workload\'s owner.', 0),
  lastConflictTime: str('When the last such removal was seen.', { format: 'date-time' }),
  replicas: int('Running (ready) replicas.', 0),
  readyReplicas: int('Ready replicas.', 0),
  desiredReplicas: int('Replicas asked for (by the spec or KEDA).', 0),
  totalReplicas: int('Pods of the workload.', 0),
  pendingReplicas: int('Pods not yet ready and not failing.', 0),
  failingPods: int('Pods failing (crash loops, image pulls, scheduling, volumes).', 0),
  status: str('Summary: Running, Napping, Degraded, Creating, ScalingUp, ScalingDown, Updating, Terminating, or an error such as WorkloadError.'),
  conditions: conditionsSchema,
  observedGeneration: observedGenerationSchema,
});

/**
 * The name rule sits on the whole object: only there can CEL see metadata.name. The API server takes no
 * fieldPath into metadata, so the message names the field itself.
 */
export const asyncActorRootRules: CelValidationRule[] = [
  {
    rule: `self.metadata.name.matches('${ACTOR_NAME_PATTERN}') && size(self.metadata.name) <= ${MAX_ACTOR_NAME_LENGTH}`,
    message: AsyncActorMessage.actorName,
    reason: 'FieldValueInvalid',
  },
];

export const asyncActorRootSchema: JSONSchemaProps = rootSchema(
  'AsyncActor runs a message handler behind a queue (Asya): standalone in a workload of its own, or bound to an existing one.',
  asyncActorSpecSchema,
  asyncActorStatusSchema,
  asyncActorRootRules,
);
