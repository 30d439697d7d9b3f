// The Helm chart: current with install.yaml (as the other generated files are), and, with the helm client
// from the tools cache, lint-clean and rendering install.yaml's objects with default values, each value
// changing exactly the fields it names. No cluster: the cluster test (test/cluster/installed.test.ts)
// installs, upgrades and uninstalls the chart for real.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { INSTALL_FILE } from '../render.ts';
import { CHART_DIR, CHART_LEAVES_OUT, chartFiles, filesOnDisk, shownInChart } from './chart.ts';
import { helmBinary, helmEnv, helmMissing, runHelm } from './helm-command.ts';
import { changedFields } from './object-diff.ts';
import { isDeployment, parseObjects, type KubeObject } from './objects.ts';

const generated = chartFiles();
const version = (JSON.parse(readFileSync(join(CHART_DIR, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
const install = parseObjects(readFileSync(INSTALL_FILE, 'utf8'));
const SYSTEM = 'kubeairunway-system';
const RELEASE = 'kubeairunway';
const CONTROLLER = `Deployment ${SYSTEM}/kubeairunway-controller`;
const WEBHOOK = `Deployment ${SYSTEM}/kubeairunway-webhook`;
const CHECKSUM = `${CONTROLLER}: spec.template.metadata.annotations.checksum/temporal`;
/** The labels the chart adds to every templated object (templates/_helpers.tpl), with what they must say. */
const HELM_LABELS = { 'helm.sh/chart': `kubeairunway-${version}`, 'app.kubernetes.io/managed-by': 'Helm', 'app.kubernetes.io/instance': RELEASE, 'app.kubernetes.io/version': version };

describe('deploy/chart/ (npm run manifests)', () => {
  it('holds exactly the files the generator writes', () => {
    expect(filesOnDisk().map(shownInChart)).toEqual(generated.map((f) => shownInChart(f.path)));
  });

  it.each(generated.map((f) => [shownInChart(f.path), f] as const))('%s is what the generator writes now', (name, file) => {
    expect(readFileSync(file.path, 'utf8'), `${name} is stale: run npm run manifests`).toBe(file.text);
  });

  it("has one template or CRD file per object of install.yaml but the Namespace, and nothing else", () => {
    const objects = generated.map((f) => shownInChart(f.path)).filter((p) => /^deploy\/chart\/(crds|templates)\/[^_].*\.yaml$/.test(p));
    expect(objects).toHaveLength(install.filter((o) => !CHART_LEAVES_OUT.includes(o.kind)).length);
  });

  it("takes its version and appVersion from package.json's version", () => {
    expect(parse(readFileSync(join(CHART_DIR, 'Chart.yaml'), 'utf8'))).toMatchObject({ name: 'kubeairunway', version, appVersion: version });
  });
});

const helm = helmBinary();

describe.skipIf(!helm)(`helm on deploy/chart/${helm ? '' : ` (skipped: ${helmMissing()})`}`, () => {
  let home: string;
  let defaults: KubeObject[];
  const run = (args: string[]) => runHelm(helm!, args, helmEnv(home));
  async function render(...set: string[]): Promise<KubeObject[]> {
    const out = await run(['template', RELEASE, CHART_DIR, '--namespace', SYSTEM, '--include-crds', ...set.flatMap((s) => ['--set', s])]);
    expect(out.code, out.stderr).toBe(0);
    return parseObjects(out.stdout);
  }
  const changed = async (...set: string[]) => changedFields(defaults, await render(...set));

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'kubeairunway-helm-'));
    defaults = await render();
  }, 60_000);
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('`helm lint --strict` passes', async () => {
    const out = await run(['lint', '--strict', CHART_DIR]);
    expect(out.code, `${out.stdout}${out.stderr}`).toBe(0);
  });

  it("with default values renders install.yaml's objects; the only differences are Helm's labels, the controller's checksum/temporal annotation and the Namespace left out", () => {
    const crds = new Set(defaults.filter((o) => o.kind === 'CustomResourceDefinition'));
    const stripped = defaults.map((o) => {
      const labels = { ...o.metadata.labels };
      // CRDs come from crds/, which Helm does not template: they carry the install's labels alone.
      if (!crds.has(o)) expect(labels, o.metadata.name).toMatchObject(HELM_LABELS);
      for (const label of Object.keys(HELM_LABELS)) delete labels[label];
      return { ...o, metadata: { ...o.metadata, labels } };
    });
    const namespace = install.find((o) => CHART_LEAVES_OUT.includes(o.kind))!;
    expect(changedFields(install, stripped)).toEqual([CHECKSUM, `- Namespace ${namespace.metadata.name}`].sort());
    const controller = defaults.filter(isDeployment).find((d) => d.metadata.name === 'kubeairunway-controller')!;
    expect(controller.spec.template.metadata.annotations!['checksum/temporal']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('controller.replicas changes the controller Deployment\'s replicas alone', async () => {
    expect(await changed('controller.replicas=3')).toEqual([`${CONTROLLER}: spec.replicas`]);
  });

  it("image.* change both Deployments' image (and pull policy) alone", async () => {
    const fields = ['spec.template.spec.containers.0.image', 'spec.template.spec.containers.0.imagePullPolicy'];
    expect(await changed('image.repository=registry.example:5000/kar', 'image.tag=dev', 'image.pullPolicy=Never')).toEqual([CONTROLLER, WEBHOOK].flatMap((d) => fields.map((f) => `${d}: ${f}`)));
    const images = (await render('image.repository=registry.example:5000/kar', 'image.tag=dev')).filter(isDeployment).map((d) => d.spec.template.spec.containers[0]!.image);
    expect(images).toEqual(['registry.example:5000/kar:dev', 'registry.example:5000/kar:dev']);
  });

  it("temporal.address changes the ConfigMap and the controller's checksum (so an upgrade restarts it) alone", async () => {
    expect(await changed('temporal.address=temporal.example:7233')).toEqual([CHECKSUM, `ConfigMap ${SYSTEM}/kubeairunway-temporal: data.TEMPORAL_ADDRESS`].sort());
  });

  it("temporal.tls and temporal.apiKey add the credential components' env, mount and volume to the controller alone, naming the Secrets given", async () => {
    const pod = 'spec.template.spec';
    expect(await changed('temporal.tls.enabled=true', 'temporal.tls.ca=true', 'temporal.tls.secretName=my-tls')).toEqual(
      [CHECKSUM, `${CONTROLLER}: ${pod}.containers.0.env`, `${CONTROLLER}: ${pod}.containers.0.volumeMounts.1`, `${CONTROLLER}: ${pod}.volumes.1`].sort(),
    );
    const rendered = await render('temporal.tls.enabled=true', 'temporal.tls.secretName=my-tls', 'temporal.apiKey.enabled=true');
    const tls = rendered.filter(isDeployment).find((d) => d.metadata.name === 'kubeairunway-controller')!.spec.template.spec;
    expect(tls.volumes).toContainEqual({ name: 'temporal-tls', secret: { secretName: 'my-tls' } });
    expect(tls.containers[0]!.env!.map((e) => (e as { name: string }).name)).toEqual(['TEMPORAL_TLS_CERT', 'TEMPORAL_TLS_KEY', 'TEMPORAL_API_KEY']);
  });

  it("providers runs only the listed providers' workers and binds only their roles", async () => {
    expect(await changed('providers={kaito}')).toEqual(
      [
        `${CONTROLLER}: spec.template.spec.containers.0.args.7`,
        ...['deployment', 'dynamo', 'kuberay'].flatMap((p) => [`- ClusterRole kubeairunway-provider-${p}`, `- ClusterRoleBinding kubeairunway-controller-provider-${p}`]),
      ].sort(),
    );
  });

  it('providers=null runs no provider in the controller and binds no provider role', async () => {
    const fields = await changed('providers=null');
    expect(fields).toContain(`${CONTROLLER}: spec.template.spec.containers.0.args.7`);
    expect(fields.filter((f) => !f.startsWith(CONTROLLER))).toEqual(['deployment', 'dynamo', 'kaito', 'kuberay'].flatMap((p) => [`- ClusterRole kubeairunway-provider-${p}`, `- ClusterRoleBinding kubeairunway-controller-provider-${p}`]).sort());
  });

  it('placement and annotations reach every pod and ServiceAccount', async () => {
    const pods = [CONTROLLER, WEBHOOK];
    expect(await changed('nodeSelector.pool=ai', 'tolerations[0].operator=Exists')).toEqual(pods.flatMap((d) => [`${d}: spec.template.spec.nodeSelector`, `${d}: spec.template.spec.tolerations`]));
    expect(await changed('podAnnotations.team=ml')).toEqual([`${CONTROLLER}: spec.template.metadata.annotations.team`, `${WEBHOOK}: spec.template.metadata.annotations`]);
    expect(await changed('serviceAccount.annotations.role=x')).toEqual(['controller', 'webhook'].map((s) => `ServiceAccount ${SYSTEM}/kubeairunway-${s}: metadata.annotations`));
  });

  it('values.schema.json refuses what would not deploy', async () => {
    for (const bad of ['controller.replicas=-1', 'providers={acme}', 'image.pullPolicy=Sometimes', 'replicas=2']) {
      const out = await run(['template', RELEASE, CHART_DIR, '--set', bad]);
      expect(out.code, bad).not.toBe(0);
      expect(out.stderr, bad).toContain("values don't meet the specifications of the schema");
    }
  });
});
