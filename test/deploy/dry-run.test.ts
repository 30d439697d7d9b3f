// Every installable kustomization is accepted by the local API server (server-side dry run: admission,
// schema validation and defaulting run, nothing is stored).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DEPLOY_DIR } from '../../deploy/render.ts';
import { kubectl } from './kubectl.ts';
import { ensureNamespace, removeNamespace } from './install-rbac.ts';
import { NODE_COMPONENT, NODE_NAMESPACE, overlay, toYaml } from './manifests.ts';

describe('kubectl apply --dry-run=server -k', () => {
  // A server dry run creates nothing, so objects in a namespace that only the same dry run would create
  // are rejected (namespace not found). The namespace is created for real first.
  let created = false;
  beforeAll(async () => {
    created = await ensureNamespace();
  });
  afterAll(async () => {
    if (created) await removeNamespace();
  });

  for (const dir of ['', 'core', 'providers/kaito', 'providers/dynamo', 'providers/kuberay', 'providers/deployment']) {
    it(`deploy/${dir} applies cleanly`, async () => {
      const r = await kubectl(['apply', '--dry-run=server', '-k', join(DEPLOY_DIR, dir)]);
      expect(r.stderr.replace(/^Warning: .*last-applied-configuration.*\n/gm, '')).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/\(server dry run\)/);
    });
  }

  it('deploy/install.yaml applies cleanly', async () => {
    const r = await kubectl(['apply', '--dry-run=server', '-f', join(DEPLOY_DIR, 'install.yaml')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/deployment.apps\/kubeairunway-controller (created|configured|unchanged) \(server dry run\)/);
  });

  it('deploy/ with the node worker (components/kybernate-node) and the Temporal credentials reaching it applies cleanly', async () => {
    // Its DaemonSet lives in a namespace of its own, created for real like kubeairunway-system.
    const createdNode = await ensureNamespace(NODE_NAMESPACE);
    try {
      const manifests = overlay([''], [NODE_COMPONENT, 'components/temporal-mtls', 'components/temporal-api-key']);
      const r = await kubectl(['apply', '--dry-run=server', '-f', '-'], { input: toYaml(manifests) });
      expect(r.stderr.replace(/^Warning: .*last-applied-configuration.*\n/gm, '')).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/daemonset.apps\/kubeairunway-node (created|configured|unchanged) \(server dry run\)/);
    } finally {
      if (createdNode) await removeNamespace(NODE_NAMESPACE);
    }
  });
});
