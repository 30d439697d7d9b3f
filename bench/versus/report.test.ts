import { describe, expect, it } from 'vitest';
import { buildReport } from './report.ts';
import type { SubjectResult } from './subject-run.ts';
import type { Subject } from './subjects.ts';

function subject(label: Subject['label']): Subject {
  return { label, namespace: `bench-${label}`, group: 'g', version: 'v1', plural: 'modeldeployments', manifest: () => ({}), start: () => Promise.reject(new Error('not started here')), dynamoVersion: 'v1beta1', beside: [] };
}

function result(label: Subject['label'], extra: Partial<SubjectResult>): SubjectResult {
  return { subject: subject(label), processes: [], bursts: [], deletes: [], ...extra };
}

describe('buildReport', () => {
  it('shows each controller’s start time beside the other’s, with the ratio, and in the ratio line', () => {
    const report = buildReport(result('ours', { startSeconds: 1.94 }), result('reference', { startSeconds: 0.6 }), { bursts: [100], quick: true });
    const row = report.lines.find((l) => l.startsWith('controller start → running, s'));
    expect(row).toMatch(/1\.9 s\s+0\.6 s\s+3\.23$/);
    expect(report.ratioLine).toMatch(/ start 3\.23$/);
  });

  it('says a subject’s figures are void when its provider resources lost fields on write, and nothing otherwise', () => {
    const lost = { kind: 'DynamoGraphDeployment', sampled: 5, lost: [{ path: 'spec.services', objects: 5 }] };
    const kept = { kind: 'DynamoGraphDeployment', sampled: 5, lost: [] };
    const report = buildReport(result('ours', { fieldLoss: kept }), result('reference', { fieldLoss: lost }), { bursts: [100], quick: true });
    expect(report.lines.filter((l) => l.includes('figures are void'))).toEqual([
      "reference: its DynamoGraphDeployments lose fields when stored (spec.services on 5 of 5; written in a version the CRD does not store, with no conversion): reference's figures are void",
    ]);
  });
});
