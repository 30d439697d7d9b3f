// The one check of a FlameCluster, run by the workflow before it renders anything and by the offline
// CLI. It rejects what the CRD schema rejects (so a spec that passed admission passes here), and what
// would only fail later when the pods are created: names too long for pod hostnames, negative
// quantities. On success it returns a clean copy holding only the fields we know, the way the API
// server prunes unknown ones.
//
// Runs inside Temporal workflow code: deterministic, no I/O, no clock, no imports beyond api/flame/ and
// the shared checks of api/common/ (the validator frame, field checks).

import { optionalResources, compact, isCount, isObject, optionalObject, optionalString, requiredObject, show, typeName, type FieldIssue, type Obj, type ObjectMetadata, type Report } from '../common/checks.ts';
import { optionalInteger, requiredInteger } from '../common/integers.ts';
import { kindValidator, type Validation } from '../common/object-validator.ts';
import { CLUSTER_NAME_PATTERN, IMAGE_PATTERN, longestChildName, MAX_CHILD_NAME_LENGTH } from './names.ts';
import { FLAME_API_VERSION, FLAME_CLUSTER_KIND } from './constants.ts';
import type { ExecutorManagerSpec, FlameCluster, FlameClusterSpec, FlameClusterStatus, ObjectCacheSpec, SessionManagerSpec } from './types.ts';

export type FlameIssue = FieldIssue;
export type FlameValidation = Validation<'cluster', FlameCluster>;

const CLUSTER_NAME = new RegExp(CLUSTER_NAME_PATTERN);
const IMAGE = new RegExp(IMAGE_PATTERN);

export const validateFlameCluster: (obj: unknown) => FlameValidation = kindValidator('cluster', {
  head: {
    apiVersion: FLAME_API_VERSION,
    kind: FLAME_CLUSTER_KIND,
    nameProblem: (name: string) =>
      CLUSTER_NAME.test(name)
        ? undefined
        : `must be a DNS-1035 label (lower-case letters, digits and '-', starting with a letter and ending with a letter or digit), since it prefixes the Service names; got ${show(name)}`,
    finalizers: false,
  },
  spec: checkSpec,
  status: readStatus,
});

/** The spec, then the name length it allows (the executor count names the longest pod). */
function checkSpec(spec: Obj, report: Report, metadata: ObjectMetadata): FlameClusterSpec {
  const sessionManager = requiredObject(spec, 'sessionManager', 'spec', report);
  const executorManager = requiredObject(spec, 'executorManager', 'spec', report);
  const checked = compact({
    // A missing or malformed component is one error, not also one per field inside it.
    sessionManager: sessionManager ? checkSessionManager(sessionManager, 'spec.sessionManager', report) : ({} as SessionManagerSpec),
    executorManager: executorManager ? checkExecutorManager(executorManager, 'spec.executorManager', report) : ({} as ExecutorManagerSpec),
    objectCache: checkObjectCache(spec, report),
  });
  const replicas = checked.executorManager.replicas;
  if (metadata.name && CLUSTER_NAME.test(metadata.name)) checkNameLength(metadata.name, isCount(replicas, 0) ? replicas : 0, report);
  return checked;
}

function checkSessionManager(value: Obj, path: string, report: Report): SessionManagerSpec {
  return compact({
    image: checkImage(value, path, report),
    resources: optionalResources(value, path, report),
    slot: optionalString(value, 'slot', path, report),
    policy: optionalString(value, 'policy', path, report),
    storage: optionalString(value, 'storage', path, report),
  });
}

function checkExecutorManager(value: Obj, path: string, report: Report): ExecutorManagerSpec {
  return compact({
    image: checkImage(value, path, report),
    replicas: requiredInteger(value, 'replicas', path, report, { min: 0 }) as number,
    resources: optionalResources(value, path, report),
    shim: optionalString(value, 'shim', path, report),
    maxExecutors: optionalInteger(value, 'maxExecutors', path, report, { min: 1 }),
  });
}

function checkObjectCache(spec: Obj, report: Report): ObjectCacheSpec | undefined {
  const value = optionalObject(spec, 'objectCache', 'spec', report);
  if (!value) return undefined;
  return compact({
    networkInterface: optionalString(value, 'networkInterface', 'spec.objectCache', report),
    storage: optionalString(value, 'storage', 'spec.objectCache', report),
  });
}

function checkImage(value: Obj, path: string, report: Report): string {
  const image = value.image;
  const field = `${path}.image`;
  if (image == null || image === '') report(field, 'required');
  else if (typeof image !== 'string') report(field, `must be a string, got ${typeName(image)}`);
  else if (!IMAGE.test(image)) report(field, `must not contain whitespace, got ${show(image)}`);
  return typeof image === 'string' ? image : '';
}

function checkNameLength(name: string, replicas: number, report: Report): void {
  const longest = longestChildName(name, replicas);
  const over = longest.length - MAX_CHILD_NAME_LENGTH;
  if (over <= 0) return;
  const pod = replicas > 0 ? `with ${replicas} executor${replicas === 1 ? '' : 's'} the pod` : 'the session manager pod';
  report(
    'metadata.name',
    `is too long: ${pod} "${longest}" would have ${longest.length} characters, over the ${MAX_CHILD_NAME_LENGTH} allowed (pod names become hostnames, which must be DNS labels); use at most ${name.length - over} characters`,
  );
}

/**
 * The stored status when it is well formed, else nothing: a malformed status never makes the cluster
 * invalid (the controller rewrites it), it is just not trusted.
 */
function readStatus(value: Obj): FlameClusterStatus | undefined {
  const { sessionManager: sm, executorManager: em, state, configGeneration, observedGeneration, message } = value;
  if (!isObject(sm) || !isCount(sm.ready, 0) || typeof sm.endpoint !== 'string') return undefined;
  if (!isObject(em) || !isCount(em.replicas, 0) || !isCount(em.ready, 0)) return undefined;
  if (state !== 'Pending' && state !== 'Running' && state !== 'Failed') return undefined;
  if (!isCount(configGeneration, 0) || !isCount(observedGeneration, 0) || typeof message !== 'string') return undefined;
  return {
    sessionManager: { ready: sm.ready as number, endpoint: sm.endpoint },
    executorManager: { replicas: em.replicas as number, ready: em.ready as number },
    state,
    configGeneration: configGeneration as number,
    observedGeneration: observedGeneration as number,
    message,
  };
}
