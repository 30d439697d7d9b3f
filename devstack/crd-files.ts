import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AnyObject } from '../kube/custom-objects.ts';
import { allCrdBundleFiles } from '../tools/resolve.ts';
import { hasUpstreamCrds, loadUpstreamCrd, upstreamCrdsDir, withoutConversionWebhook } from './upstream-crds.ts';

const yamlFilesIn = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.yaml'))
        .sort()
        .map((f) => join(dir, f))
    : [];

/**
 * CRD files the local stack (`npm run dev`, the bench, the chaos run) installs: the product's own; KubeRay's
 * and KEDA's real ones, copied from their Go modules into the tools cache by `npm run tools`; and for KAITO
 * and Dynamo, whose CRDs no registry here serves, the strict stand-ins in examples/upstream-crds/ (they
 * declare the upstream fields and types and preserve nothing unknown, so an undeclared field is refused
 * here as on a real cluster).
 */
export function stackCrdFiles(root: string): string[] {
  return [...yamlFilesIn(join(root, 'deploy/crds')), ...yamlFilesIn(join(root, 'examples/upstream-crds')), ...allCrdBundleFiles()];
}

/** What the test suite's stack installs: files as they are, plus CRD objects changed for this cluster. */
export interface TestStackCrds {
  files: string[];
  crds: AnyObject[];
  /** Why the stand-ins were installed instead of the upstream files (the tests that need those skip). */
  fallback?: string;
}

/**
 * The test suite's CRDs: the product's own, KubeRay's and KEDA's from the tools cache, and the upstream
 * projects' own KAITO Workspace and Dynamo DynamoGraphDeployment files from `../shared/upstream-crds/`
 * (or `KUBEAIRUNWAY_UPSTREAM_CRDS`), never the stand-ins: the tests hold our rendering to the real
 * schemas. Dynamo's CRD converts between its versions through the Dynamo operator's webhook, which does
 * not run here; it is installed with conversion None, v1beta1 (upstream's storage version) stored.
 */
export function testStackCrds(root: string): TestStackCrds {
  if (!hasUpstreamCrds(root, ['kaitoWorkspaces', 'dynamoGraphDeployments'])) {
    return {
      files: stackCrdFiles(root),
      crds: [],
      fallback: `the upstream KAITO and Dynamo CRD files are not in ${upstreamCrdsDir(root)} (set KUBEAIRUNWAY_UPSTREAM_CRDS): the strict stand-ins are installed and the tests that need the upstream files skip`,
    };
  }
  const dynamo = withoutConversionWebhook(loadUpstreamCrd(root, 'dynamoGraphDeployments'), { storage: 'v1beta1' });
  return {
    files: [...yamlFilesIn(join(root, 'deploy/crds')), ...allCrdBundleFiles()],
    crds: [loadUpstreamCrd(root, 'kaitoWorkspaces'), dynamo],
  };
}
