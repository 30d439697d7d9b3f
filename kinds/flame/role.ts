// The Flame role (deploy/core/flame/cluster-role.yaml): what FlameClusters' activities and watches call.

import type { ClusterRoleSpec } from '../rbac.ts';

export const flameRole: ClusterRoleSpec = {
  folder: 'flame',
  name: 'kubeairunway-flame',
  about: [
    'FlameClusters (seed 004): their workflow runs in the core controller process, the core worker',
    '(activities/flame/create-flame-activities.ts) and the watcher (watcher/kinds/flame-cluster.ts), and',
    "creates each cluster's ConfigMap, its two Services and its Pods in the FlameCluster's namespace. A role",
    'of its own, apart from kubeairunway-controller, so that its binding decides where FlameClusters are',
    'served: every namespace (cluster-role-binding.yaml), or a RoleBinding per namespace together with the',
    "controller's --namespaces flag. Every rule is namespaced: bound by a RoleBinding, none reaches beyond",
    "that namespace. Events (InvalidSpec, Reconciled) go through the core role's events rule.",
  ],
  rules: [
    {
      why: [
        "get: applyFlameCluster and reportFlameStatus read the live FlameCluster when the watcher's cache",
        '  cannot answer (kube/read-live.ts readLive).',
        "list, watch: the watcher's informer (watcher/kinds/flame-cluster.ts) starts and wakes the workflows.",
        'No create, update, patch or delete: FlameClusters belong to users, and the workflow sets no',
        "  finalizer (Kubernetes' garbage collector removes the children through their owner references).",
      ],
      apiGroups: ['flame.xflops.io'],
      resources: ['flameclusters'],
      verbs: ['get', 'list', 'watch'],
    },
    {
      why: [
        'patch: reportFlameStatus writes the status by server-side apply (field manager kubeairunway-flame).',
      ],
      apiGroups: ['flame.xflops.io'],
      resources: ['flameclusters/status'],
      verbs: ['patch'],
    },
    {
      why: [
        'update: every child carries a controller owner reference with blockOwnerDeletion',
        '  (render/flame/render.ts childMetadata); where the OwnerReferencesPermissionEnforcement',
        "  admission plugin is on, setting it requires update on the owner's finalizers subresource, or the",
        '  API server refuses the child. It grants nothing else (finalizers are not written through it).',
      ],
      apiGroups: ['flame.xflops.io'],
      resources: ['flameclusters/finalizers'],
      verbs: ['update'],
    },
    {
      why: [
        "list, watch: the watcher's informer on pods labelled flame.xflops.io/cluster wakes the owning",
        "  workflow on a pod's readiness, edit or deletion; the activities read the same cache, and list with",
        '  the label selector while it is not filled (podsOf).',
        'create, patch: the session manager and executor pods are applied by server-side apply (field manager',
        '  kubeairunway-flame); an apply of a missing pod is a create, so it needs both.',
        'delete: scale-down (extra executors) and recreation of stale pods (configuration or pod spec changed),',
        "  each with the pod's uid as precondition.",
        'No get (a pod is never read by name), no update, no subresource (pods/exec, /attach, /portforward,',
        '  /eviction, /status), and no deletecollection.',
      ],
      apiGroups: [''],
      resources: ['pods'],
      verbs: ['list', 'watch', 'create', 'patch', 'delete'],
    },
    {
      why: [
        "list, watch: the watcher's informer on Services labelled flame.xflops.io/cluster (an edit or a",
        '  deletion wakes the owner, and the next pass applies them again).',
        'create, patch: both Services are applied by server-side apply every pass.',
        'No get (never read), no delete (the garbage collector removes them with the FlameCluster).',
      ],
      apiGroups: [''],
      resources: ['services'],
      verbs: ['list', 'watch', 'create', 'patch'],
    },
    {
      why: [
        "get: applyFlameCluster reads the cluster's ConfigMap before applying it, for its configuration hash",
        '  and generation annotations (status.configGeneration).',
        "list, watch: the watcher's informer on ConfigMaps labelled flame.xflops.io/cluster.",
        'create, patch: the ConfigMap is applied by server-side apply.',
        'No delete (the garbage collector removes it with the FlameCluster).',
      ],
      apiGroups: [''],
      resources: ['configmaps'],
      verbs: ['get', 'list', 'watch', 'create', 'patch'],
    },
  ],
  binding: [
    'The Flame role in every namespace: the controller serves FlameClusters wherever they are (the watcher',
    'lists and watches them cluster-wide unless started with --namespaces). To serve only some namespaces,',
    'delete this binding and bind the same ClusterRole with a RoleBinding in each (deploy/README.md).',
  ],
};
