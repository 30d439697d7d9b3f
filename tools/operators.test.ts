import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crdBundleFiles, resolveAllTools, resolveCrdBundle } from './resolve.ts';
import { crdBundleSpec, toolSpec } from './versions.ts';

const dir = mkdtempSync(join(tmpdir(), 'tools-operators-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let saved: string | undefined;
beforeEach(() => {
  saved = process.env.KUBEAIRUNWAY_TOOLS_CACHE;
  process.env.KUBEAIRUNWAY_TOOLS_CACHE = dir;
});
afterEach(() => {
  if (saved === undefined) delete process.env.KUBEAIRUNWAY_TOOLS_CACHE;
  else process.env.KUBEAIRUNWAY_TOOLS_CACHE = saved;
});

describe('the operators\' version check', () => {
  // What `go version -m` prints: the main module after `go install`, a dependency after a module build.
  const installed = 'kuberay-operator: go1.26.8\n\tpath\tgithub.com/ray-project/kuberay/ray-operator\n\tmod\tgithub.com/ray-project/kuberay/ray-operator\tv1.5.0\th1:KCj=\n\tdep\tgithub.com/Masterminds/semver/v3\tv3.3.1\th1:x=\n';
  const built = 'keda-operator: go1.26.8\n\tpath\tgithub.com/kedacore/keda/v2/cmd/operator\n\tmod\tgithub.com/kedacore/keda/v2\tv2.21.0\th1:R6z=\n\tdep\tcel.dev/expr\tv0.25.3\th1:A2j=\n';

  it('reads KubeRay\'s version from the main module and KEDA\'s from the dependency', () => {
    expect(toolSpec('kuberay-operator').versionPattern.exec(installed)?.[1]).toBe('1.5.0');
    expect(toolSpec('keda-operator').versionPattern.exec(built)?.[1]).toBe('2.21.0');
    // Neither matches the other's binary, nor a module that merely starts with the same path.
    expect(toolSpec('kuberay-operator').versionPattern.exec(built)).toBeNull();
    expect(toolSpec('keda-operator').versionPattern.exec(installed)).toBeNull();
    expect(toolSpec('keda-operator').versionPattern.exec(built.replace('keda/v2\t', 'keda/v2-fork\t'))).toBeNull();
  });

  it('does not make the stack need the operators', () => {
    // With an empty cache and no env, only the four stack binaries may be reported missing.
    const env = { ...process.env };
    try {
      for (const name of ['TEMPORAL', 'ETCD', 'KUBE_APISERVER', 'KUBE_CONTROLLER_MANAGER']) process.env[`KUBEAIRUNWAY_${name}_BIN`] = '/bin/true';
      expect(Object.keys(resolveAllTools()).sort()).toEqual(['etcd', 'kube-apiserver', 'kube-controller-manager', 'temporal']);
    } finally {
      process.env = env;
    }
  });
});

describe('CRD bundles in the cache', () => {
  it('are found only when every file is there, and a missing one says how to fetch it', () => {
    const spec = crdBundleSpec('keda-crds');
    expect(resolveCrdBundle(spec)).toBeUndefined();
    expect(() => crdBundleFiles('keda-crds')).toThrow(`missing the github.com/kedacore/keda/v2@v2.21.0 CRD files in ${join(dir, 'keda-crds-2.21.0')}. Run \`npm run tools\` to fetch them.`);
    mkdirSync(join(dir, 'keda-crds-2.21.0'), { recursive: true });
    const names = spec.files.map((f) => f.split('/').pop()!);
    for (const name of names.slice(1)) writeFileSync(join(dir, 'keda-crds-2.21.0', name), 'kind: CustomResourceDefinition\n');
    expect(resolveCrdBundle(spec)).toBeUndefined();
    writeFileSync(join(dir, 'keda-crds-2.21.0', names[0]!), 'kind: CustomResourceDefinition\n');
    expect(crdBundleFiles('keda-crds')).toEqual(names.map((n) => join(dir, 'keda-crds-2.21.0', n)));
  });
});
