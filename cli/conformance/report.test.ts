import { describe, expect, it } from 'vitest';
import { exitCodeOf, formatReport, summarize, type ConformanceReport, type ObjectResult, type TargetReport } from './report.ts';

const targets: TargetReport[] = [
  { target: 'dynamo', resource: 'dynamographdeployments.nvidia.com', status: 'checked', served: ['v1alpha1', 'v1beta1'], checked: ['nvidia.com/v1beta1', 'nvidia.com/v1alpha1'] },
  { target: 'kaito', resource: 'workspaces.kaito.sh', status: 'checked', served: ['v1alpha1', 'v1beta1'], checked: ['kaito.sh/v1beta1'] },
  { target: 'kuberay', resource: 'rayservices.ray.io', status: 'skipped', served: [], checked: [], reason: 'CRD rayservices.ray.io is not installed' },
];

const accepted: ObjectResult = { target: 'kaito', apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', name: 'gemma-cpu', source: 'golden kaito/example-2-gemma-cpu', outcome: 'accepted' };
const refused: ObjectResult = {
  target: 'dynamo',
  apiVersion: 'nvidia.com/v1alpha1',
  kind: 'DynamoGraphDeployment',
  name: 'llama-8b',
  source: 'examples/gpu-vllm-dynamo.yaml',
  outcome: 'refused',
  message: 'DynamoGraphDeployment in version "v1alpha1" cannot be handled as a DynamoGraphDeployment: strict decoding error: unknown field "spec.services.Frontend.router-mode"',
};
const pruned: ObjectResult = {
  target: 'dynamo',
  apiVersion: 'nvidia.com/v1beta1',
  kind: 'DynamoGraphDeployment',
  name: 'full',
  source: 'golden dynamo/vllm-everything',
  outcome: 'pruned',
  losses: [
    { path: 'spec.components[0].x', kind: 'pruned', sent: 1 },
    { path: 'spec.components[1].x', kind: 'pruned', sent: 2 },
    { path: 'spec.components[0].replicas', kind: 'changed', sent: 1, returned: 2 },
  ],
};

function report(results: ObjectResult[], ts = targets): ConformanceReport {
  return { server: 'https://127.0.0.1:6443', namespace: 'default', targets: ts, results, notes: [], summary: summarize(ts, results) };
}

describe('conformance report', () => {
  it('counts outcomes; exit code 0 only when everything was accepted and every installed CRD serves a version we render', () => {
    expect(summarize(targets, [accepted, refused, pruned])).toEqual({ checked: 3, accepted: 1, refused: 1, pruned: 1, errors: 0, unsupported: 0 });
    expect(exitCodeOf(summarize(targets, [accepted]))).toBe(0);
    expect(exitCodeOf(summarize(targets, [accepted, refused]))).toBe(1);
    expect(exitCodeOf(summarize(targets, [accepted, pruned]))).toBe(1);
    expect(exitCodeOf(summarize(targets, [{ ...accepted, outcome: 'error', message: 'Forbidden' }]))).toBe(1);
    const unsupported: TargetReport = { ...targets[1]!, status: 'unsupported', checked: [], reason: 'the cluster serves kaito.sh/v1alpha1; kubeairunway renders kaito.sh/v1beta1' };
    expect(exitCodeOf(summarize([unsupported], []))).toBe(1);
    // A CRD that is not installed is no failure.
    expect(exitCodeOf(summarize([targets[2]!], []))).toBe(0);
  });

  it('a table: objects, targets, the problems in full, then the totals', () => {
    expect(formatReport(report([accepted, refused, pruned]), 'table')).toBe(
      [
        'Server-side dry-run (fieldValidation=Strict) against https://127.0.0.1:6443, namespace default',
        '',
        'RESULT     TARGET   API VERSION           OBJECT                           SOURCE                             DETAIL',
        'accepted   kaito    kaito.sh/v1beta1      Workspace/gemma-cpu              golden kaito/example-2-gemma-cpu',
        'refused    dynamo   nvidia.com/v1alpha1   DynamoGraphDeployment/llama-8b   examples/gpu-vllm-dynamo.yaml      DynamoGraphDeployment in version "v1alpha1" cannot be handled as a DynamoGraphDeployment:…',
        'pruned     dynamo   nvidia.com/v1beta1    DynamoGraphDeployment/full       golden dynamo/vllm-everything      spec.components[0].x pruned, spec.components[1].x pruned (+1 more)',
        '',
        'TARGET    CRD                                 SERVED              CHECKED             RESULT',
        'dynamo    dynamographdeployments.nvidia.com   v1alpha1, v1beta1   v1beta1, v1alpha1   1 refused, 1 pruned',
        'kaito     workspaces.kaito.sh                 v1alpha1, v1beta1   v1beta1             1 accepted',
        'kuberay   rayservices.ray.io                  -                   -                   skipped: CRD rayservices.ray.io is not installed',
        '',
        'Problems:',
        '  refused: DynamoGraphDeployment/llama-8b (nvidia.com/v1alpha1, from examples/gpu-vllm-dynamo.yaml)',
        `    ${refused.message}`,
        '  pruned: DynamoGraphDeployment/full (nvidia.com/v1beta1, from golden dynamo/vllm-everything)',
        '    spec.components[0].x: sent 1, not returned',
        '    spec.components[1].x: sent 2, not returned',
        '    spec.components[0].replicas: sent 1, returned 2',
        '',
        '3 objects checked: 1 accepted, 1 refused, 1 pruned',
        '',
      ].join('\n'),
    );
  });

  it('says what pruning in a version the controller does not render here means, once per version', () => {
    const old = { ...pruned, apiVersion: 'nvidia.com/v1alpha1', name: 'old', losses: [{ path: 'spec.services', kind: 'pruned' as const, sent: {} }] };
    const text = formatReport(report([accepted, old, { ...old, name: 'old2' }, pruned]), 'table');
    const hint =
      '\nPruned in nvidia.com/v1alpha1: the controller renders nvidia.com/v1beta1 on this cluster, so its deployments are not affected. ' +
      "dynamographdeployments.nvidia.com converts nvidia.com/v1alpha1 only through the provider's conversion webhook, which did not convert these objects: " +
      'anything that sends nvidia.com/v1alpha1 (an older controller, a hand-written manifest) loses those fields. ' +
      "Nothing to do for kubeairunway; for such clients, run the provider operator's conversion webhook (the dev stack's stand-in CRDs have none).\n";
    expect(text.split(hint)).toHaveLength(2);
    // Pruned in the version the controller renders: no such comfort.
    expect(formatReport(report([accepted, pruned]), 'table')).not.toContain('Pruned in');
  });

  it('says when no object could be rendered, and lists what was not rendered', () => {
    const text = formatReport({ ...report([], [targets[2]!]), notes: ['examples/x.yaml: ModelDeployment default/x: spec.model.id is required'] }, 'table');
    expect(text).toContain('kuberay   rayservices.ray.io   -        -         skipped: CRD rayservices.ray.io is not installed');
    expect(text).toContain('Not rendered:\n  examples/x.yaml: ModelDeployment default/x: spec.model.id is required\n');
    expect(text).toMatch(/\n0 objects checked: 0 accepted, 0 refused, 0 pruned\n$/);
  });

  it('JSON carries every field for scripts', () => {
    const parsed = JSON.parse(formatReport(report([pruned]), 'json'));
    expect(parsed.results[0].losses).toHaveLength(3);
    expect(parsed.summary).toEqual({ checked: 1, accepted: 0, refused: 0, pruned: 1, errors: 0, unsupported: 0 });
    expect(parsed.targets.map((t: TargetReport) => t.status)).toEqual(['checked', 'checked', 'skipped']);
  });
});
