// `kubeairunway render -f FILE`: prints the provider resources the controller would create for each
// ModelDeployment, and the children of each FlameCluster (ConfigMap, Services, Pods), or why it cannot
// (exit code 1). Nothing is printed to stdout unless every object renders, so the output can be piped
// to `kubectl apply -f -` safely.

import { Option, type Command } from 'commander';
import { MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import { FLAME_CLUSTER_KIND } from '../../api/flame/constants.ts';
import { describeObject, readManifests, type ManifestDocument } from '../documents.ts';
import { CliError } from '../errors.ts';
import { checkFlameCluster, renderFlameDocument } from '../flame.ts';
import { formatObjects, type OutputFormat } from '../format.ts';
import type { CliIO } from '../io.ts';
import { kindOf } from '../objects.ts';
import { planDeployment } from '../deployment-plan.ts';
import { loadProviderCatalog } from '../provider-catalog.ts';
import { action, type CommandRegistration } from '../program.ts';

interface RenderOptions {
  filename: string[];
  provider?: string;
  providerConfig?: string[];
  output: OutputFormat;
}

export const renderCommand: CommandRegistration = (program: Command, { io }) => {
  program
    .command('render')
    .description('Print the resources the controller would create for ModelDeployments and FlameClusters.')
    .requiredOption('-f, --filename <path...>', 'ModelDeployment or FlameCluster manifest, directory, or - for stdin (repeatable)')
    .option('--provider <name>', 'render for this provider, as if spec.provider.name named it')
    .option('--provider-config <path...>', 'InferenceProviderConfig manifests to select with (replace built-ins of the same name)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['yaml', 'json']).default('yaml'))
    .action(action((options: RenderOptions) => runRender(io, options)));
};

export async function runRender(io: CliIO, options: RenderOptions): Promise<number> {
  const catalog = await loadProviderCatalog(io, options.providerConfig);
  const docs = await readManifests(io, options.filename);
  if (docs.length === 0) throw new CliError(`No objects found in ${options.filename.join(', ')}.`);
  const wrongKind = docs.find((d) => kindOf(d) !== MODEL_DEPLOYMENT_KIND && kindOf(d) !== FLAME_CLUSTER_KIND);
  if (wrongKind) {
    throw new CliError(
      `${wrongKind.source} holds ${describeObject(wrongKind)}; render takes ModelDeployments and FlameClusters (pass provider configs with --provider-config).`,
    );
  }

  const objects: unknown[] = [];
  let failed = false;
  for (const doc of docs) {
    if (kindOf(doc) === FLAME_CLUSTER_KIND) {
      const rendered = renderFlame(io, doc);
      if (rendered) objects.push(...rendered);
      else failed = true;
      continue;
    }
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
      continue;
    }
    const resource = plan.provider.resource;
    const rendered = plan.provider.render(plan.md, { apiVersion: `${resource.group}/${resource.versions[0]}` });
    printWarnings(io, name, [...warnings, ...rendered.warnings]);
    objects.push(...rendered.objects);
  }

  if (failed) return 1;
  io.stdout(formatObjects(objects, options.output));
  return 0;
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

function printWarnings(io: CliIO, name: string, warnings: readonly string[]): void {
  for (const warning of warnings) io.stderr(`warning: ${name}: ${warning}\n`);
}
