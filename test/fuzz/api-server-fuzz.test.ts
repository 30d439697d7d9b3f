// The fuzz generators of api/fuzz/ against the real admission webhook and API server: a few hundred
// generated ModelDeployments (valid, near-valid, hostile) are created with server-side dry-run through
// the webhook and the CRD; every refusal must name a field; for every accepted one, the objects the
// chosen provider renders, the pods its operator would create from them and the Service names it would
// derive are dry-run created too, and must all be accepted.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDefaults } from '../../api/defaults.ts';
import { derivedNames, derivedPods } from './rendered-checks.ts';
import { deploymentArb, type FuzzDeployment, type SpecKind } from '../../api/fuzz/spec-arbitraries.ts';
import type { InferenceProviderConfig, ModelDeployment, ModelDeploymentSpec } from '../../api/types.ts';
import { validate } from '../../api/validate.ts';
import { collectionPath, CustomObjects } from '../../kube/custom-objects.ts';
import { classifyKubeError } from '../../kube/errors.ts';
import { KubeRest } from '../../kube/rest.ts';
import { builtinProviders, findProvider, selectProvider } from '../../providers/index.ts';
import { eventually, testKube, type TestKube } from '../support/env.ts';
import { manifest, startTestWebhook, untilEffective, type TestWebhook } from '../webhook/support.ts';

const SEED = 20_240_611;
const COUNTS: Record<SpecKind, number> = { valid: 160, nearValid: 100, hostile: 40 };
const IPC = { group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'inferenceproviderconfigs' };

describe('fuzz through the real webhook and API server', () => {
  let kube: TestKube;
  let webhook: TestWebhook;
  let rest: KubeRest;
  const created: string[] = [];

  beforeAll(async () => {
    kube = await testKube('fuzz');
    rest = new KubeRest(kube.kc);
    const objects = new CustomObjects(kube.kc);
    // The built-in providers' configs, so the webhook knows their CRDs are installed and checks overrides.
    for (const p of builtinProviders) {
      const ref = { ...IPC, name: p.name };
      if (await objects.get(ref)) continue;
      created.push(p.name);
      const body = { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'InferenceProviderConfig', metadata: { name: p.name }, spec: p.config.spec };
      await objects.apply(ref, body, 'fuzz-test');
      await objects.applyStatus(ref, { ...body, spec: undefined, status: { upstreamCRDVersion: p.resource.versions[0] } } as never, 'fuzz-test');
    }
    webhook = await startTestWebhook(kube.kc, kube.namespace);
    await untilEffective(kube.kc, kube.namespace);
    await eventually('the webhook to see the built-in provider configs', async () => {
      const spec = { model: { id: 'a/b' }, engine: { type: 'llamacpp' }, image: 'i', provider: { name: 'kaito' } } as ModelDeploymentSpec;
      return (await dryRun(collectionPath({ group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'modeldeployments', namespace: kube.namespace }), manifest(kube.namespace, 'probe', spec))) === undefined;
    }, 30_000);
  });

  afterAll(async () => {
    await webhook?.cleanup();
    const objects = kube ? new CustomObjects(kube.kc) : undefined;
    for (const name of created) await objects?.delete({ ...IPC, name }).catch(() => undefined);
    await kube?.cleanup();
  });

  /** Server-side dry-run create: undefined when accepted, otherwise the API server's message. */
  async function dryRun(path: string, body: unknown): Promise<string | undefined> {
    try {
      await rest.request('POST', path, { body, query: { dryRun: 'All' } });
      return undefined;
    } catch (err) {
      const k = classifyKubeError(err);
      if (['Forbidden', 'Invalid', 'BadRequest', 'Conflict'].includes(k.type)) return `${k.type}: ${k.detail}`;
      throw err;
    }
  }

  it(`${Object.values(COUNTS).reduce((a, b) => a + b, 0)} generated specs: refusals name a field, accepted specs render objects the API server accepts`, async () => {
    const t0 = Date.now();
    const deployments: FuzzDeployment[] = [];
    for (const [kind, n] of Object.entries(COUNTS) as Array<[SpecKind, number]>) {
      for (const d of fc.sample(deploymentArb(kind), { seed: SEED, numRuns: n * 2 })) {
        if (deployments.filter((x) => x.kind === kind).length >= n) break;
        // Only what JSON can carry reaches the API server.
        let spec: unknown;
        try {
          spec = JSON.parse(JSON.stringify(d.spec) ?? 'null');
        } catch {
          continue;
        }
        deployments.push({ ...d, spec, namespace: kube.namespace });
      }
    }
    const mdPath = collectionPath({ group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'modeldeployments', namespace: kube.namespace });
    const readyConfigs: InferenceProviderConfig[] = builtinProviders.map((p) => ({ ...p.config, status: { ready: true } }));
    const problems: string[] = [];
    const counts = { admitted: 0, refused: 0, objects: 0, pods: 0, names: 0, disagreements: 0 };

    for (const d of deployments) {
      const body = manifest(d.namespace, d.name, d.spec as ModelDeploymentSpec, { labels: d.labels });
      const denial = await dryRun(mdPath, body);
      const offline = validate(d.spec, { installedProviderCRDs: builtinProviders.map((p) => p.name) });
      if (denial !== undefined) {
        counts.refused++;
        if (!/spec(\.|\[|\b)|model\.|engine\.|scaling\.|resources\.|image|Provider '/.test(denial)) problems.push(`refusal names no field: ${denial.slice(0, 300)}`);
        continue;
      }
      counts.admitted++;
      if (offline.errors.length > 0) counts.disagreements++;
      if (offline.errors.length > 0 || d.spec === null || typeof d.spec !== 'object') continue;

      const spec = applyDefaults(d.spec as ModelDeploymentSpec);
      const md: ModelDeployment = { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', metadata: { name: d.name, namespace: d.namespace, uid: `uid-${d.name}`, labels: d.labels }, spec };
      const choice = selectProvider(md, readyConfigs, { selectorEnabled: true }).selected?.name;
      const provider = choice ? findProvider(choice) : undefined;
      if (!provider || !provider.compatibility(md).compatible) continue;
      if (validate(spec, { selectedProvider: provider.name, overrideSchema: provider.overrideSchema }).errors.length > 0) continue;
      const { objects } = provider.render(md, { apiVersion: `${provider.resource.group}/${provider.resource.versions[0]}` });
      for (const object of objects) {
        const core = object.apiVersion === 'v1';
        const path = core
          ? collectionPath({ group: '', version: 'v1', plural: `${object.kind.toLowerCase()}s`, namespace: d.namespace })
          : collectionPath({ group: provider.resource.group, version: object.apiVersion.split('/')[1] ?? '', plural: provider.resource.plural, namespace: d.namespace });
        counts.objects++;
        const refused = await dryRun(path, object);
        if (refused) problems.push(`${provider.name} ${object.kind} '${object.metadata.name}' of ${JSON.stringify(d.spec).slice(0, 300)}: ${refused.slice(0, 400)}`);
        for (const [i, pod] of derivedPods(provider.name, object).entries()) {
          counts.pods++;
          const template = pod.template as { metadata?: Record<string, unknown>; spec?: Record<string, unknown> };
          const podBody = { apiVersion: 'v1', kind: 'Pod', metadata: { ...(template.metadata ?? {}), name: `fuzz-pod-${i}` }, spec: template.spec };
          const podRefused = await dryRun(collectionPath({ group: '', version: 'v1', plural: 'pods', namespace: d.namespace }), podBody);
          if (podRefused) problems.push(`${provider.name} pod of ${pod.where}, spec ${JSON.stringify(d.spec).slice(0, 300)}: ${podRefused.slice(0, 400)}`);
        }
        for (const derived of derivedNames(provider.name, object)) {
          counts.names++;
          const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: derived.name }, spec: { ports: [{ port: 8000 }] } };
          const svcRefused = await dryRun(collectionPath({ group: '', version: 'v1', plural: 'services', namespace: d.namespace }), svc);
          if (svcRefused) problems.push(`${provider.name} ${derived.where} '${derived.name}': ${svcRefused.slice(0, 300)}`);
        }
      }
    }
    process.stdout.write(`[fuzz] API server, seed ${SEED}, ${deployments.length} specs in ${((Date.now() - t0) / 1000).toFixed(1)}s: ${JSON.stringify(counts)}\n`);
    expect(deployments.length).toBeGreaterThanOrEqual(250);
    expect(problems.slice(0, 10), `${problems.length} problems`).toEqual([]);
    expect(counts.admitted).toBeGreaterThan(50);
  }, 170_000);
});
