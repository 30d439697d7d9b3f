// The two controllers as the bench sees them (ours, and the peer it is given, labelled `reference`):
// where their deployments live, what a deployment looks like (the same spec, examples/gpu-vllm-dynamo.yaml,
// in each controller's API group), how to start them.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { GROUP, MODEL_DEPLOYMENT_PLURAL, VERSION } from '../../api/constants.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import type { RunningController } from './controller-processes.ts';
import { PEER_GROUP } from './peer-dir.ts';

export type SubjectLabel = 'ours' | 'reference';

export interface Subject {
  label: SubjectLabel;
  namespace: string;
  group: string;
  version: string;
  plural: string;
  manifest(name: string): AnyObject;
  start(): Promise<RunningController>;
  /** The DynamoGraphDeployment version it writes: the stack's CRD stores it while this subject runs (dynamo-storage.ts). */
  dynamoVersion: string;
  /** Processes whose CPU and memory are shown beside the controller's (the Temporal server for ours). */
  beside: { name: string; pid: number }[];
}

/** The peer's API group; its spec fields are ours, but nothing defaults them without its webhook. */
const REFERENCE_GROUP = PEER_GROUP;

function example(repoRoot: string): AnyObject {
  return parse(readFileSync(`${repoRoot}/examples/gpu-vllm-dynamo.yaml`, 'utf8')) as AnyObject;
}

/** The version the Go reference writes its DynamoGraphDeployments in (it predates v1beta1). */
export const REFERENCE_DYNAMO_VERSION = 'v1alpha1';

export function oursSubject(repoRoot: string, namespace: string, start: () => Promise<RunningController>, temporalPid: number, dynamoVersion: string): Subject {
  const template = example(repoRoot);
  return {
    label: 'ours',
    namespace,
    group: GROUP,
    version: VERSION,
    plural: MODEL_DEPLOYMENT_PLURAL,
    manifest: (name) => ({ ...template, metadata: { name, namespace } }),
    start,
    dynamoVersion,
    beside: [{ name: 'Temporal server', pid: temporalPid }],
  };
}

export function referenceSubject(repoRoot: string, namespace: string, start: () => Promise<RunningController>): Subject {
  const template = example(repoRoot);
  const spec = template.spec as { resources?: { gpu?: { count?: number } } };
  if (!spec.resources?.gpu?.count) throw new Error('the example must give resources.gpu.count: the reference has no webhook to default it');
  return {
    label: 'reference',
    namespace,
    group: REFERENCE_GROUP,
    version: 'v1alpha1',
    plural: 'modeldeployments',
    manifest: (name) => ({ ...template, apiVersion: `${REFERENCE_GROUP}/v1alpha1`, metadata: { name, namespace } }),
    start,
    dynamoVersion: REFERENCE_DYNAMO_VERSION,
    beside: [],
  };
}
