// The one check of a FlameCluster, run by the workflow before it renders anything and by the offline
// CLI. It rejects what the CRD schema rejects (so a spec that passed admission passes here), and what
// would only fail later when the pods are created: names too long for pod hostnames, negative
// quantities. On success it returns a clean copy holding only the fields we know, the way the API
// server prunes unknown ones.
//
// The spec is checked by the one schema interpreter (api/schema/check.ts) against its declaration; only
// the name length, which spans metadata and spec, is written here. Pure: deterministic, no I/O, no clock.

import { isCount, show, type FieldIssue, type ObjectMetadata, type Report } from '../common/checks.ts';
import { kindValidator, type Validation } from '../common/object-validator.ts';
import { flameClusterSpecSchema, flameClusterStatusSchema } from '../crd/flame-cluster-schema.ts';
import { conforms } from '../schema/conforms.ts';
import { specChecker } from '../schema/spec-checker.ts';
import { CLUSTER_NAME_PATTERN, longestChildName, MAX_CHILD_NAME_LENGTH } from './names.ts';
import { FLAME_API_VERSION, FLAME_CLUSTER_KIND } from './constants.ts';
import type { FlameCluster, FlameClusterSpec } from './types.ts';

export type FlameIssue = FieldIssue;
export type FlameValidation = Validation<'cluster', FlameCluster>;

const CLUSTER_NAME = new RegExp(CLUSTER_NAME_PATTERN);

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
  spec: specChecker(flameClusterSpecSchema, checkNameLengthOf),
  // A malformed status never makes the cluster invalid (the controller rewrites it); it is just not trusted.
  status: (status) => (conforms(flameClusterStatusSchema, status) ? status : undefined),
});

/** The name length the spec allows: the executor count names the longest pod. */
function checkNameLengthOf(spec: Partial<FlameClusterSpec>, _raw: unknown, report: Report, metadata: ObjectMetadata): void {
  const replicas = spec.executorManager?.replicas;
  if (metadata.name && CLUSTER_NAME.test(metadata.name)) checkNameLength(metadata.name, isCount(replicas, 0) ? replicas : 0, report);
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
