// The core controller's role (deploy/core/controller/cluster-role.yaml): what ModelDeployments' activities and
// watches call, and the events every kind writes.

import type { ClusterRoleSpec } from '../rbac.ts';

export const modelDeploymentRole: ClusterRoleSpec = {
  folder: 'controller',
  name: 'kubeairunway-controller',
  about: [
    'The core controller: the watcher and the core worker (workflows + core activities). The core knows no',
    'provider, so no provider kind appears here; each provider has its own role (deploy/providers/*/role).',
    'Seed 001 §10 lists broader verbs; only what the code calls is granted, rule by rule below.',
  ],
  rules: [
    {
      why: [
        'get: every core activity reads the live object first (activities/kind/kind-client.ts read).',
        "list, watch: the watcher's informer (watcher/watcher.ts) turns changes into workflow signals.",
        'patch: addFinalizer/removeFinalizer, a JSON patch guarded by resourceVersion',
        '  (activities/core/create-core-activities.ts patchFinalizers).',
        'No create, update or delete: ModelDeployments belong to users; the controller never writes them whole.',
      ],
      apiGroups: ['kubeairunway.ai'],
      resources: ['modeldeployments'],
      verbs: ['get', 'list', 'watch', 'patch'],
    },
    {
      why: [
        "patch: writeCoreStatus, a server-side apply of the core's status fields (field manager",
        '  kubeairunway-controller).',
      ],
      apiGroups: ['kubeairunway.ai'],
      resources: ['modeldeployments/status'],
      verbs: ['patch'],
    },
    {
      why: [
        'list: provider selection and the "CRD not installed" check read every InferenceProviderConfig',
        '  (selectProvider, validateDeployment). watch: the watcher wakes deployments waiting for a provider.',
        "Writes of the spec are the providers' own (their roles, limited to their own name).",
      ],
      apiGroups: ['kubeairunway.ai'],
      resources: ['inferenceproviderconfigs'],
      verbs: ['list', 'watch'],
    },
    {
      why: [
        'patch: a selection rule that fails while selecting (division by zero, missing key, not a bool) is',
        "  reported on the config's status as the RulesValid condition, a server-side apply with field manager",
        '  kubeairunway-controller that owns that one condition (activities/core/rule-error-report.ts). Any',
        '  config, third-party ones included: the core cannot know in advance whose rule will fail. The rest',
        "  of status stays the provider's (its heartbeat, field manager <provider>-provider), but for a",
        "  config whose heartbeat went stale: the core marks it not ready (ready, Ready=False HeartbeatStale),",
        '  field manager kubeairunway-controller-liveness (worker/provider-liveness.ts), until the next heartbeat.',
      ],
      apiGroups: ['kubeairunway.ai'],
      resources: ['inferenceproviderconfigs/status'],
      verbs: ['patch'],
    },
    {
      why: [
        'list, watch: the watcher wakes deployments waiting for a provider CRD when one is installed.',
        "The seed grants get + list for version detection; that is the providers' job (their roles, by name).",
      ],
      apiGroups: ['apiextensions.k8s.io'],
      resources: ['customresourcedefinitions'],
      verbs: ['list', 'watch'],
    },
    {
      why: [
        "create: ProviderSelected, SecretNotFound and the workflow's events (kube/events.ts EventRecorder).",
        'get, update: a repeated event is aggregated into the existing one (count + 1), as kubectl expects.',
      ],
      apiGroups: [''],
      resources: ['events'],
      verbs: ['create', 'get', 'update'],
    },
    {
      why: [
        'get: validateDeployment checks that spec.secrets.huggingFaceToken names an existing Secret',
        '  (kube/secret-exists.ts). The request asks for PartialObjectMetadata, so the API server returns',
        '  metadata only and Secret data never reaches the controller (seed 001 §10 "never reads secret',
        '  contents"). RBAC cannot grant "metadata only": get is the narrowest verb that answers "exists?".',
        '  No list or watch: the controller cannot enumerate Secrets, it can only ask about a name it was given.',
      ],
      apiGroups: [''],
      resources: ['secrets'],
      verbs: ['get'],
    },
  ],
};
