// The simulated upstream operators (devstack/simulators) may write only status fields the upstream status
// schema declares: each golden input's rendering is created for real (in every version the simulator
// works in), and each status the simulator writes (progressing, ready, failed) goes through the status
// subresource with fieldValidation=Strict, as the simulator writes it (a JSON merge patch). The API server
// must take every field and keep it: 0 refused, 0 pruned.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasUpstreamCrds } from '../../devstack/upstream-crds.ts';
import { lostFields } from '../../cli/conformance/compare.ts';
import { UPSTREAM_SCRIPTS } from '../../devstack/simulators/scripts.ts';
import type { UpstreamScript } from '../../devstack/simulators/simulator.ts';
import { collectionPath, objectPath, type AnyObject } from '../../kube/custom-objects.ts';
import { classifyKubeError } from '../../kube/errors.ts';
import { KubeRest } from '../../kube/rest.ts';
import { goldenInputs } from '../../providers/golden-inputs.ts';
import { builtinProviders } from '../../providers/index.ts';
import { kubeConfig } from '../support/env.ts';
import { dynamoCrd, installAndServe, withUpstreamCrds } from './crds.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const MERGE = 'application/merge-patch+json';

interface StatusProblem {
  object: string;
  apiVersion: string;
  phase: string;
  problem: string;
}

/** The provider whose resource the simulator plays the operator of. */
function providerOf(script: UpstreamScript) {
  const provider = builtinProviders.find((p) => p.resource.group === script.group && p.resource.plural === script.plural);
  if (!provider) throw new Error(`no built-in provider renders ${script.plural}.${script.group}`);
  return provider;
}

describe.skipIf(!hasUpstreamCrds(ROOT, ['kaitoWorkspaces', 'dynamoGraphDeployments']))('simulated operators write only declared status fields', () => {
  const kc = kubeConfig();
  const rest = new KubeRest(kc);
  const kube = withUpstreamCrds(kc, ROOT, 'sim-status');

  for (const script of UPSTREAM_SCRIPTS) {
    const versions = script.versions ?? [script.version];
    for (const version of versions) {
      it(`${script.plural}.${script.group} ${version}: progressing, ready and failed status of every golden input kept as written`, async () => {
        if (script.group === 'nvidia.com') await installAndServe(kc, [dynamoCrd(ROOT, [version], version)]);
        const provider = providerOf(script);
        const apiVersion = `${script.group}/${version}`;
        const inputs = goldenInputs().filter((g) => g.provider === provider.name);
        const problems: StatusProblem[] = [];
        let written = 0;
        for (const golden of inputs) {
          const rendered = provider.render(golden.md, { apiVersion }).objects[0] as AnyObject;
          // No owner: the ModelDeployment named in the rendering does not exist here, and the garbage
          // collector would delete the object under the test.
          const name = `${golden.name}-${version}`.slice(0, 50).replace(/-+$/, '');
          const object = { ...rendered, metadata: { ...rendered.metadata, name, namespace: kube.namespace, ownerReferences: undefined } };
          const ref = { group: script.group, version, plural: script.plural, namespace: kube.namespace };
          const created = await rest.request<AnyObject>('POST', collectionPath(ref), { body: object, query: { fieldValidation: 'Strict' } });
          const phases: [string, Record<string, unknown>][] = [
            ['progressing', script.progressing(created)],
            ['ready', script.ready(created)],
            ['failed', script.failed(created, 'simulated failure')],
          ];
          for (const [phase, status] of phases) {
            written++;
            try {
              const returned = await rest.request<AnyObject>('PATCH', `${objectPath({ ...ref, name })}/status`, {
                body: { status },
                contentType: MERGE,
                query: { fieldValidation: 'Strict' },
              });
              for (const loss of lostFields(status, returned.status ?? {})) {
                problems.push({ object: golden.name, apiVersion, phase, problem: `status.${loss.path} ${loss.kind} (sent ${JSON.stringify(loss.sent)})` });
              }
            } catch (err) {
              problems.push({ object: golden.name, apiVersion, phase, problem: `refused: ${classifyKubeError(err).detail}` });
            }
          }
        }
        expect(problems).toEqual([]);
        // Three writes per golden input: the test cannot pass by writing nothing.
        expect(inputs.length).toBeGreaterThan(0);
        expect(written).toBe(inputs.length * 3);
      });
    }
  }
});
