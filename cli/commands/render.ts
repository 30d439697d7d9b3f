// `kubeairunway render -f FILE`: prints what the controller would create for each object of a
// registered kind (kinds/index.ts), each by its module's renderer: the provider resources of each
// ModelDeployment, the children of each FlameCluster (ConfigMap, Services, Pods), what each AsyncActor
// applies (standalone: its workload and ScaledObject; binding: the injection into its target) and the
// pod of each KybernateRestore and KybernateWorkload, or why it cannot (exit code 1); a
// KybernateCheckpoint creates nothing, which stderr says. A module's companions are read, not printed
// (Deployments and StatefulSets next to AsyncActors, Pods next to KybernateRestores). Nothing is
// printed to stdout unless every object renders, so the output can be piped to `kubectl apply -f -`
// safely.

import { Option, type Command } from 'commander';
import type { OfflineSession } from '../../kinds/kind-module.ts';
import { describeObject, kindOf, readManifests, type ManifestDocument } from '../../present/documents.ts';
import { CliError } from '../../present/errors.ts';
import { formatObjects, type OutputFormat } from '../format.ts';
import type { CliIO } from '../io.ts';
import { loadOfflineModules, sentenceList, type OfflineModule } from '../offline-modules.ts';
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
      "render a provider's resource in this API version, e.g. nvidia.com/v1beta1 (default: the newest version the provider renders, what a cluster with its current CRD gets; Dynamo: nvidia.com/v1beta1, older nvidia.com/v1alpha1)",
    )
    .addOption(new Option('-o, --output <format>', 'output format').choices(['yaml', 'json']).default('yaml'))
    .action(action((options: RenderOptions) => runRender(io, options)));
};

export async function runRender(io: CliIO, options: RenderOptions): Promise<number> {
  const modules = await loadOfflineModules();
  const session: OfflineSession = { io, docs: [], options, facts: new Map(), shared: new Map() };
  for (const m of modules) await m.handlers.prepare?.(session);
  const docs = await readManifests(io, options.filename);
  if (docs.length === 0) throw new CliError(`No objects found in ${options.filename.join(', ')}.`);
  session.docs = docs;
  const present = new Set(docs.map(kindOf));
  const moduleOf = (d: ManifestDocument) => modules.find((m) => m.rendered.includes(kindOf(d) ?? ''));
  const isCompanion = (d: ManifestDocument) => modules.some((m) => m.registration.companions && present.has(m.registration.companions.next) && m.registration.companions.kinds.includes(kindOf(d) ?? ''));
  const wrongKind = docs.find((d) => !moduleOf(d) && !isCompanion(d));
  if (wrongKind) {
    const kinds = modules.flatMap((m) => m.rendered.map((k) => `${k}s`));
    const companions = modules.flatMap((m) => (m.registration.companions ? [m.registration.companions.phrase] : []));
    throw new CliError(
      `${wrongKind.source} holds ${describeObject(wrongKind)}; render takes ${sentenceList(kinds, 'and')}, ${sentenceList(companions, 'and')} (pass provider configs with --provider-config).`,
    );
  }

  // Objects per document, in input order. Late modules' documents come last: they may read what the
  // others rendered anywhere in the input (an AsyncActor binds to a ModelDeployment).
  const rendered: unknown[][] = docs.map(() => []);
  let failed = false;
  for (const late of [false, true]) {
    docs.forEach((doc, index) => {
      const module = moduleOf(doc);
      if (!module || Boolean(module.registration.late) !== late) return;
      const objects = renderOne(io, doc, module, session);
      if (objects) rendered[index] = objects;
      else failed = true;
    });
  }

  if (failed) return 1;
  io.stdout(formatObjects(rendered.flat(), options.output));
  return 0;
}

/** One document's objects, or undefined (after saying why on stderr) when it cannot be rendered. */
function renderOne(io: CliIO, doc: ManifestDocument, module: OfflineModule, session: OfflineSession): unknown[] | undefined {
  const name = `${doc.source}: ${describeObject(doc)}`;
  const result = module.handlers.render(doc, session);
  if (result.problems.length > 0) {
    io.stderr(`${name} cannot be rendered:\n${result.problems.map((p) => `  ${p}\n`).join('')}`);
    printWarnings(io, name, result.warnings);
    return undefined;
  }
  if ('note' in result && result.note) io.stderr(`${name} ${result.note}\n`);
  printWarnings(io, name, result.warnings);
  return result.objects;
}

function printWarnings(io: CliIO, name: string, warnings: readonly string[]): void {
  for (const warning of warnings) io.stderr(`warning: ${name}: ${warning}\n`);
}
