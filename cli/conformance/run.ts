// `kubeairunway conformance` once its options are parsed: open the cluster, find which targets it serves
// in which versions, render for those, dry-run every object, report. Loaded only when the command runs.

import { join, relative } from 'node:path';
import { KubeRest } from '../../kube/rest.ts';
import { goldenInputs } from '../../providers/golden-inputs.ts';
import { readManifests, type ManifestDocument } from '../../present/documents.ts';
import { CliError } from '../../present/errors.ts';
import type { CliIO } from '../io.ts';
import { mapLimit } from '../operator/command.ts';
import type { KubeOptions } from '../operator/connection-options.ts';
import { openKube } from '../operator/kube-session.ts';
import type { OperatorOutput } from '../operator/output.ts';
import { loadProviderCatalog } from '../../kinds/model-deployment/provider-catalog.ts';
import { repoRoot } from '../repo-root.ts';
import { discoverTarget, dryRunCase } from './cluster.ts';
import { conformanceTargets, renderCases } from './inputs.ts';
import { exitCodeOf, formatReport, summarize, type ConformanceReport, type ObjectResult, type TargetReport } from './report.ts';

export interface ConformanceOptions extends KubeOptions {
  namespace: string;
  /** Targets to check (default: all). */
  target?: string[];
  /** More ModelDeployment / AsyncActor manifests to render and check. */
  filename?: string[];
  /** false with --no-examples: leave out the repository's examples/ (and the golden inputs with --no-golden). */
  examples: boolean;
  golden: boolean;
  output: OperatorOutput;
}

/** Dry-runs in flight at once: enough to hide round trips, few enough not to load anyone's API server. */
const CONCURRENCY = 4;

export async function runConformance(io: CliIO, options: ConformanceOptions): Promise<number> {
  const report = await conformanceReport(io, options);
  io.stdout(formatReport(report, options.output));
  return exitCodeOf(report.summary);
}

export async function conformanceReport(io: CliIO, options: ConformanceOptions): Promise<ConformanceReport> {
  const all = conformanceTargets();
  const unknown = (options.target ?? []).filter((t) => !all.some((a) => a.name === t));
  if (unknown.length > 0) throw new CliError(`Unknown target ${unknown.join(', ')} (targets: ${all.map((a) => a.name).join(', ')}).`);
  const targets = options.target?.length ? all.filter((a) => options.target!.includes(a.name)) : all;

  const documents = await inputDocuments(io, options);
  const kube = openKube(options);
  const rest = new KubeRest(kube.kc);

  const reports: TargetReport[] = [];
  for (const target of targets) reports.push(await discoverTarget(rest, target, kube.server));
  const versions = new Map(reports.map((r) => [r.target, r.checked]));
  const catalog = await loadProviderCatalog(io);
  const { cases, notes } = renderCases({ documents, goldens: options.golden ? goldenInputs() : [] }, catalog, versions);

  const plurals = new Map(targets.map((t) => [t.name, t.resource.plural]));
  const results: ObjectResult[] = await mapLimit(cases, CONCURRENCY, (item) => dryRunCase(rest, item, plurals.get(item.target)!, options.namespace, kube.server));
  return { server: kube.server, namespace: options.namespace, targets: reports, results, notes, summary: summarize(reports, results) };
}

/** The repository's examples (when this CLI runs from a checkout that has them) and the files given with -f. */
async function inputDocuments(io: CliIO, options: ConformanceOptions): Promise<ManifestDocument[]> {
  const examples = options.examples ? await examplesDir(io) : [];
  // Examples are named as in the repository (examples/gpu-vllm-dynamo.yaml), not by their absolute path.
  const fromExamples = examples.length > 0 ? (await readManifests(io, examples)).map((d) => ({ ...d, source: relative(repoRoot(), d.source) })) : [];
  const given = options.filename?.length ? await readManifests(io, options.filename) : [];
  return [...fromExamples, ...given];
}

async function examplesDir(io: CliIO): Promise<string[]> {
  const dir = join(repoRoot(), 'examples');
  // An installed image has no examples/: the golden inputs and -f files are checked alone.
  const files = await io.listManifestFiles(dir).catch(() => undefined);
  return files ?? [];
}
