// The upstream CRDs the conformance test sends objects to, installed by the test itself (whatever the
// shared stack holds) and put back as they were afterwards, so the files after it see the stack they expect.
//
// Dynamo's CRD converts between v1alpha1 and v1beta1 through the Dynamo operator's webhook, which does not
// run here. Installed with conversion None, an object is validated and pruned against the version it is
// sent in, then stored as the storage version and decoded (and pruned) against *that* version's schema:
// a dry-run's answer holds only what survives the storage schema. A real cluster converts through the
// webhook instead; the closest this cluster gets is one version at a time, served and stored alone.

import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll } from 'vitest';
import { lostFields } from '../../cli/conformance/compare.ts';
import { installCrds, readCrdFiles } from '../../devstack/crds.ts';
import { loadUpstreamCrd, withoutConversionWebhook } from '../../devstack/upstream-crds.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { KubeRest } from '../../kube/rest.ts';
import { crdBundleFiles } from '../../tools/resolve.ts';
import { eventually, testKube, type TestKube } from '../support/env.ts';

const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' } as const;
export const DGD_CRD = 'dynamographdeployments.nvidia.com';

/** KAITO's Workspace (../shared/upstream-crds), KubeRay's and KEDA's CRDs (their Go modules, via the tools cache). */
export function upstreamCrds(root: string): AnyObject[] {
  return [loadUpstreamCrd(root, 'kaitoWorkspaces'), ...readCrdFiles([...crdBundleFiles('kuberay-crds'), ...crdBundleFiles('keda-crds')])];
}

/** Dynamo's DGD CRD without its conversion webhook, serving `served` and storing `storage`. */
export function dynamoCrd(root: string, served: string[], storage: string): AnyObject {
  return withoutConversionWebhook(loadUpstreamCrd(root, 'dynamoGraphDeployments'), { served, storage });
}

/** The live CRDs of these names (undefined: not installed), to put back later. */
export async function saveCrds(kc: KubeConfig, names: readonly string[]): Promise<Map<string, AnyObject | undefined>> {
  const objects = new CustomObjects(kc);
  const saved = new Map<string, AnyObject | undefined>();
  for (const name of names) saved.set(name, await objects.get({ ...CRDS, name }));
  return saved;
}

/** Applies each saved CRD's spec again; one that was not installed before stays (the shared stack installs it too). */
export async function restoreCrds(kc: KubeConfig, saved: ReadonlyMap<string, AnyObject | undefined>): Promise<void> {
  const previous = [...saved.values()].filter((crd): crd is AnyObject => crd !== undefined);
  await installAndServe(
    kc,
    previous.map((crd) => ({ apiVersion: crd.apiVersion, kind: crd.kind, metadata: { name: crd.metadata!.name }, spec: crd.spec })),
  );
}

/**
 * Installs the CRDs the cluster does not already hold as given (the shared stack installs most of them:
 * applying a megabyte of schema again costs seconds for nothing), then waits until API discovery serves
 * exactly each one's served versions (the handler is rebuilt by then).
 */
export async function installAndServe(kc: KubeConfig, crds: readonly AnyObject[]): Promise<void> {
  const objects = new CustomObjects(kc);
  const changed: AnyObject[] = [];
  for (const crd of crds) {
    const live = await objects.get({ ...CRDS, name: crd.metadata!.name! });
    // Every field of the wanted spec already there, as given (the server's defaults do not count).
    if (!live || lostFields(crd.spec, live.spec).length > 0) changed.push(crd);
  }
  await installCrds(kc, changed);
  const rest = new KubeRest(kc);
  for (const crd of crds) {
    const spec = crd.spec as { group: string; names: { plural: string }; versions: { name: string; served: boolean }[] };
    const want = spec.versions.filter((v) => v.served).map((v) => v.name).sort();
    await eventually(`${crd.metadata!.name} served in ${want.join(', ')}`, async () => {
      // The group's document too: the command reads its version list there, and it can lag the versions' own.
      const group = await rest.request<{ versions?: { version: string }[] }>('GET', `/apis/${spec.group}`).catch(() => undefined);
      if (!want.every((v) => group?.versions?.some((g) => g.version === v))) return false;
      const served: string[] = [];
      for (const v of spec.versions) {
        const list = await rest.request<{ resources?: { name: string }[] }>('GET', `/apis/${spec.group}/${v.name}`).catch(() => undefined);
        if (list?.resources?.some((r) => r.name === spec.names.plural)) served.push(v.name);
      }
      return JSON.stringify(served.sort()) === JSON.stringify(want);
    });
  }
}

/**
 * For a describe block (both conformance files): a test namespace (`prefix`-…) and the upstream CRDs
 * installed before its tests, the CRDs put back as they were and the namespace removed after them. The
 * namespace is read in the tests (it exists from beforeAll on).
 */
export function withUpstreamCrds(kc: KubeConfig, root: string, prefix: string): { readonly namespace: string } {
  let kube: TestKube | undefined;
  let saved: Map<string, AnyObject | undefined> | undefined;
  beforeAll(async () => {
    kube = await testKube(prefix);
    const crds = upstreamCrds(root);
    saved = await saveCrds(kc, [...crds.map((c) => c.metadata!.name!), DGD_CRD]);
    await installAndServe(kc, crds);
  });
  afterAll(async () => {
    if (saved) await restoreCrds(kc, saved);
    await kube?.cleanup();
  });
  return {
    get namespace() {
      if (!kube) throw new Error('the test namespace exists from beforeAll on');
      return kube.namespace;
    },
  };
}
