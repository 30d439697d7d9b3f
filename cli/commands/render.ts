// `kubeairunway render -f FILE`: prints the provider resources the controller would create for each
// ModelDeployment, the children of each FlameCluster (ConfigMap, Services, Pods), what each AsyncActor
// applies (standalone: its workload and ScaledObject; binding: the injection into its target) and the
// pod of each KybernateRestore and KybernateWorkload, or why it cannot (exit code 1); a
// KybernateCheckpoint creates nothing, which stderr says. Deployments and StatefulSets may be given as
// binding targets, Pods as the checkpointed pods of restores; they are read, not printed. Nothing is
// printed to stdout unless every object renders, so the output can be piped to `kubectl apply -f -`
// safely.

import { Option, type Command } from 'commander';
import { ASYNC_ACTOR_KIND } from '../../api/asya/constants.ts';
import { MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import { FLAME_CLUSTER_KIND } from '../../api/flame/constants.ts';
import { CHECKPOINT_KIND, RESTORE_KIND } from '../../api/kybernate/constants.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { checkAsyncActor, modelDeploymentFacts, renderAsyncActorDocument, WORKLOAD_KINDS, type ModelDeploymentFacts, type OfflineTargets } from '../asya.ts';
import { describeObject, readManifests, type ManifestDocument } from '../documents.ts';
import { CliError } from '../errors.ts';
import { checkFlameCluster, renderFlameDocument } from '../flame.ts';
import { checkKybernate, KYBERNATE_DOCUMENT_KINDS, renderKybernateDocument, RESTORE_SOURCE_KINDS, type KybernateOfflineContext } from '../kybernate.ts';
import { formatObjects, type OutputFormat } from '../format.ts';
import type { CliIO } from '../io.ts';
import { kindOf } from '../objects.ts';
import type { ProviderResourceType } from '../../providers/contract.ts';
import { planDeployment } from '../deployment-plan.ts';
import { loadProviderCatalog } from '../provider-catalog.ts';
import { action, type CommandRegistration } from '../program.ts';

interface RenderOptions {
  filename: string[];
  provider?: string;
  providerConfig?: string[];
  apiVersion?: string[];
  output: OutputFormat;
}

export const renderCommand: CommandRegistration = (program: Command, { io }) => {
  program
    .command('render')
    .description('Print the resources the controller would create for ModelDeployments, FlameClusters, AsyncActors and Kybernate kinds.')
    .requiredOption(
      '-f, --filename <path...>',
      'ModelDeployment, FlameCluster, AsyncActor or Kybernate manifest (and AsyncActor targets, checkpointed Pods), directory, or - for stdin (repeatable)',
    )
    .option('--provider <name>', 'render for this provider, as if spec.provider.name named it')
    .option('--provider-config <path...>', 'InferenceProviderConfig manifests to select with (replace built-ins of the same name)')
    .option(
      '--api-version <group/version...>',
      "render a provider's resource in this API version, e.g. nvidia.com/v1beta1 (default: what a cluster without the provider's newer version gets; Dynamo: nvidia.com/v1alpha1)",
    )
    .addOption(new Option('-o, --output <format>', 'output format').choices(['yaml', 'json']).default('yaml'))
    .action(action((options: RenderOptions) => runRender(io, options)));
};

export async function runRender(io: CliIO, options: RenderOptions): Promise<number> {
  const catalog = await loadProviderCatalog(io, options.providerConfig);
  const docs = await readManifests(io, options.filename);
  if (docs.length === 0) throw new CliError(`No objects found in ${options.filename.join(', ')}.`);
  const hasActors = docs.some((d) => kindOf(d) === ASYNC_ACTOR_KIND);
  const hasRestores = docs.some((d) => kindOf(d) === RESTORE_KIND);
  const isTarget = (d: ManifestDocument) => hasActors && (WORKLOAD_KINDS as readonly (string | undefined)[]).includes(kindOf(d));
  const isRestoreSource = (d: ManifestDocument) => hasRestores && RESTORE_SOURCE_KINDS.includes(kindOf(d) ?? '');
  const wrongKind = docs.find((d) => !RENDERED_KINDS.includes(kindOf(d) ?? '') && !isTarget(d) && !isRestoreSource(d));
  if (wrongKind) {
    throw new CliError(
      `${wrongKind.source} holds ${describeObject(wrongKind)}; render takes ModelDeployments, FlameClusters, AsyncActors, KybernateCheckpoints, KybernateRestores and KybernateWorkloads, Deployments or StatefulSets next to AsyncActors and Pods next to KybernateRestores (pass provider configs with --provider-config).`,
    );
  }

  // Objects per document, in input order. AsyncActors come last: they may bind to ModelDeployments anywhere in the input.
  const rendered: unknown[][] = docs.map(() => []);
  const modelDeployments: ModelDeploymentFacts[] = [];
  let failed = false;
  const kybernate: KybernateOfflineContext = { checkpoints: docs.filter((d) => kindOf(d) === CHECKPOINT_KIND), pods: docs.filter(isRestoreSource) };
  docs.forEach((doc, index) => {
    if (KYBERNATE_DOCUMENT_KINDS.includes(kindOf(doc) ?? '')) {
      const objects = renderKybernate(io, doc, kybernate);
      if (objects) rendered[index] = objects;
      else failed = true;
      return;
    }
    if (kindOf(doc) === FLAME_CLUSTER_KIND) {
      const objects = renderFlame(io, doc);
      if (objects) rendered[index] = objects;
      else failed = true;
      return;
    }
    if (kindOf(doc) !== MODEL_DEPLOYMENT_KIND) return;
    const plan = planDeployment(doc, catalog, { provider: options.provider });
    const name = `${doc.source}: ${describeObject(doc)}`;
    // The provider's compatibility check repeats the override warnings validation already gave (with their field): once is enough.
    const validated = new Set(plan.validation.warnings.map((w) => w.message));
    const warnings = [
      ...plan.validation.warnings.map((w) => `${w.field}: ${w.message}`),
      ...(plan.compatibility?.warnings ?? []).filter((w) => !validated.has(w)),
    ];

    if (plan.problems.length > 0 || !plan.provider || !plan.selection.selected) {
      failed = true;
      // Validation and the provider's compatibility check may both name one bad override: say it once.
      io.stderr(`${name} cannot be rendered:\n${[...new Set(plan.problems)].map((p) => `  ${p}\n`).join('')}`);
      printWarnings(io, name, warnings);
      return;
    }
    const apiVersion = offlineApiVersion(plan.provider.resource, options.apiVersion);
    if ('error' in apiVersion) {
      failed = true;
      io.stderr(`${name} cannot be rendered:\n  ${apiVersion.error}\n`);
      return;
    }
    const result = plan.provider.render(plan.md, { apiVersion: apiVersion.apiVersion });
    printWarnings(io, name, [...warnings, ...result.warnings]);
    rendered[index] = result.objects;
    modelDeployments.push(modelDeploymentFacts(plan.md, result.objects[0] as AnyObject | undefined, plan.provider.mapStatus(result.objects[0]).endpoint));
  });

  const targets: OfflineTargets = { workloads: docs.filter(isTarget), modelDeployments };
  docs.forEach((doc, index) => {
    if (kindOf(doc) !== ASYNC_ACTOR_KIND) return;
    const objects = renderActor(io, doc, targets);
    if (objects) rendered[index] = objects;
    else failed = true;
  });

  if (failed) return 1;
  io.stdout(formatObjects(rendered.flat(), options.output));
  return 0;
}

/** The version asked for with --api-version in the provider's group, else the provider's offline version. */
function offlineApiVersion(resource: ProviderResourceType, asked: readonly string[] | undefined): { apiVersion: string } | { error: string } {
  const supported = resource.versions.map((v) => `${resource.group}/${v}`);
  const wanted = asked?.find((a) => a.split('/')[0] === resource.group);
  if (wanted === undefined) return { apiVersion: `${resource.group}/${resource.offlineVersion ?? resource.versions[0]}` };
  if (supported.includes(wanted)) return { apiVersion: wanted };
  return { error: `--api-version ${wanted}: ${resource.kind} is rendered in ${supported.join(' or ')}` };
}

const RENDERED_KINDS: readonly string[] = [MODEL_DEPLOYMENT_KIND, FLAME_CLUSTER_KIND, ASYNC_ACTOR_KIND, ...KYBERNATE_DOCUMENT_KINDS];

/** An AsyncActor's objects, or undefined (after saying why on stderr) when it is invalid or its target cannot be rendered for. */
function renderActor(io: CliIO, doc: ManifestDocument, targets: OfflineTargets): unknown[] | undefined {
  const name = `${doc.source}: ${describeObject(doc)}`;
  const warnings = checkAsyncActor(doc).warnings.map((w) => `${w.field}: ${w.message}`);
  const result = renderAsyncActorDocument(doc, targets);
  if (result.problems.length > 0) {
    io.stderr(`${name} cannot be rendered:\n${result.problems.map((p) => `  ${p}\n`).join('')}`);
    printWarnings(io, name, [...warnings, ...result.warnings]);
    return undefined;
  }
  printWarnings(io, name, [...warnings, ...result.warnings]);
  return result.objects;
}

/** A FlameCluster's children, or undefined (after saying why on stderr) when it is invalid. */
function renderFlame(io: CliIO, doc: ManifestDocument): unknown[] | undefined {
  const name = `${doc.source}: ${describeObject(doc)}`;
  const warnings = checkFlameCluster(doc).warnings.map((w) => `${w.field}: ${w.message}`);
  const rendered = renderFlameDocument(doc);
  if (rendered.problems.length > 0) {
    io.stderr(`${name} cannot be rendered:\n${rendered.problems.map((p) => `  ${p}\n`).join('')}`);
    printWarnings(io, name, warnings);
    return undefined;
  }
  printWarnings(io, name, warnings);
  return rendered.objects;
}

/**
 * A Kybernate object's pod (none for a KybernateCheckpoint, said so on stderr), or undefined (after
 * saying why on stderr) when it is invalid. What the render had to assume offline is a warning.
 */
function renderKybernate(io: CliIO, doc: ManifestDocument, context: KybernateOfflineContext): unknown[] | undefined {
  const name = `${doc.source}: ${describeObject(doc)}`;
  const warnings = checkKybernate(doc).warnings.map((w) => `${w.field}: ${w.message}`);
  const result = renderKybernateDocument(doc, context);
  if (result.problems.length > 0) {
    io.stderr(`${name} cannot be rendered:\n${result.problems.map((p) => `  ${p}\n`).join('')}`);
    printWarnings(io, name, warnings);
    return undefined;
  }
  if ('nothing' in result && result.nothing) io.stderr(`${name} ${result.nothing}\n`);
  printWarnings(io, name, [...warnings, ...result.warnings]);
  return result.objects;
}

function printWarnings(io: CliIO, name: string, warnings: readonly string[]): void {
  for (const warning of warnings) io.stderr(`warning: ${name}: ${warning}\n`);
}
