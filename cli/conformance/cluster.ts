// The cluster side of the conformance check: which API versions the cluster serves for each target kind
// (API discovery, which every authenticated user may read), and a server-side dry-run create of each
// rendered object with fieldValidation=Strict: the API server validates, admits (webhooks see dryRun)
// and decodes the object exactly as for a real create, then answers with what it would have stored.

import { collectionPath, splitApiVersion, type AnyObject } from '../../kube/custom-objects.ts';
import { classifyKubeError } from '../../kube/errors.ts';
import type { KubeRest } from '../../kube/rest.ts';
import { CliError } from '../../present/errors.ts';
import { lostFields } from './compare.ts';
import type { ConformanceTarget, RenderedCase } from './inputs.ts';
import type { ObjectResult, TargetReport } from './report.ts';

const FIELD_MANAGER = 'kubeairunway-conformance';

interface ApiGroup {
  versions?: { version: string }[];
}
interface ApiResourceList {
  resources?: { name: string }[];
}

/** The target's served versions, and which of them we render (our preference order). */
export async function discoverTarget(rest: KubeRest, target: ConformanceTarget, server: string): Promise<TargetReport> {
  const { group, plural, versions } = target.resource;
  const report = (status: TargetReport['status'], served: string[], checked: string[], reason?: string): TargetReport => ({
    target: target.name,
    resource: `${plural}.${group}`,
    status,
    served,
    checked,
    ...(reason ? { reason } : {}),
  });
  const apiGroup = await discover<ApiGroup>(rest, `/apis/${group}`, server);
  const served: string[] = [];
  for (const { version } of apiGroup?.versions ?? []) {
    const list = await discover<ApiResourceList>(rest, `/apis/${group}/${version}`, server);
    if (list?.resources?.some((r) => r.name === plural)) served.push(version);
  }
  if (served.length === 0) return report('skipped', [], [], `CRD ${plural}.${group} is not installed`);
  const checked = versions.filter((v) => served.includes(v)).map((v) => `${group}/${v}`);
  if (checked.length === 0) {
    return report('unsupported', served, [], `the cluster serves ${served.map((v) => `${group}/${v}`).join(', ')}; kubeairunway renders ${versions.map((v) => `${group}/${v}`).join(', ')}`);
  }
  return report('checked', served, checked);
}

/** A discovery document, or undefined when the path is not served (404). */
async function discover<T>(rest: KubeRest, path: string, server: string): Promise<T | undefined> {
  try {
    return await rest.request<T>('GET', path);
  } catch (err) {
    const k = classifyKubeError(err);
    if (k.status === 404) return undefined;
    throw clusterFailure(k, `read ${path}`, server);
  }
}

function clusterFailure(k: ReturnType<typeof classifyKubeError>, action: string, server: string): CliError {
  if (k.type === 'Unavailable') return new CliError(`Cannot reach the Kubernetes API server at ${server} to ${action}: ${k.detail}.`);
  if (k.type === 'Forbidden') return new CliError(`Kubernetes denied the request to ${action}: ${k.detail}.`);
  return new CliError(`Could not ${action}: ${k.detail}.`);
}

/**
 * Dry-run creates one rendered object in `namespace` and compares the answer with what was sent. An
 * object of the same name already there (a real deployment) is sent again under a generated name: the
 * check is about the schema, never about what the cluster holds.
 */
export async function dryRunCase(rest: KubeRest, item: RenderedCase, plural: string, namespace: string, server: string): Promise<ObjectResult> {
  const base = {
    target: item.target,
    apiVersion: item.apiVersion,
    kind: item.object.kind ?? '',
    name: item.object.metadata?.name ?? '',
    source: item.source,
  };
  const sent = inNamespace(item.object, namespace);
  const path = collectionPath({ ...splitApiVersion(item.apiVersion), plural, namespace });
  const query = { dryRun: 'All', fieldValidation: 'Strict', fieldManager: FIELD_MANAGER };
  let body = sent;
  let ignore: string[] = [];
  for (let attempt = 0; ; attempt++) {
    try {
      const returned = await rest.request<AnyObject>('POST', path, { body, query });
      const losses = lostFields(body, returned, { ignore });
      return losses.length === 0 ? { ...base, outcome: 'accepted' } : { ...base, outcome: 'pruned', losses };
    } catch (err) {
      const k = classifyKubeError(err);
      if (k.type === 'AlreadyExists' && attempt === 0) {
        body = withGeneratedName(sent);
        ignore = ['metadata.name', 'metadata.generateName'];
        continue;
      }
      // The object itself was refused: schema (strict decoding, types, enums, CEL rules) or admission.
      if (k.type === 'Invalid') return { ...base, outcome: 'refused', message: k.detail };
      // A create answers NotFound only for its namespace (a missing kind is NoKindMatch).
      if (k.type === 'NotFound') {
        throw new CliError(`Namespace ${namespace} does not exist on ${server}: pass -n with an existing namespace (nothing is created in it).`);
      }
      if (k.type === 'Unavailable') throw clusterFailure(k, `dry-run ${base.kind} ${base.name}`, server);
      // Anything else (no permission, a webhook that cannot be reached, a conversion webhook failing)
      // says nothing about the object: reported, and counted, as not checkable.
      return { ...base, outcome: 'error', message: `${k.type}${k.status ? ` (HTTP ${k.status})` : ''}: ${k.detail}` };
    }
  }
}

function inNamespace(object: AnyObject, namespace: string): AnyObject {
  return { ...object, metadata: { ...object.metadata, namespace } };
}

function withGeneratedName(object: AnyObject): AnyObject {
  const { name, ...metadata } = object.metadata ?? {};
  return { ...object, metadata: { ...metadata, generateName: `${name ?? 'conformance'}-` } };
}
