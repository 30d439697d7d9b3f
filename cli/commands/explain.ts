// `kubeairunway explain -f FILE`: which provider the controller would select for each ModelDeployment
// and why, why every other provider was not selected, which selection rules failed (they count as not
// matching), and whether the selected one accepts the spec. Exit code 0 when every deployment would be
// served, 1 otherwise.
//
// Offline by default, with the built-in provider configs: the answer for a file does not depend on
// whatever cluster the shell's KUBECONFIG happens to name. `--cluster` selects with the cluster's
// InferenceProviderConfigs instead (third-party providers, edited rules, readiness as reported).

import { Option, type Command } from 'commander';
import { MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import { explicitProvider } from '../../api/spec-helpers.ts';
import { describeRuleError, type ProviderChoice } from '../../providers/index.ts';
import { describeObject, kindOf, readManifests } from '../../present/documents.ts';
import { CliError } from '../../present/errors.ts';
import { countIssues, formatJson, issueLines } from '../format.ts';
import type { CliIO } from '../io.ts';
import { withKubeOptions, type KubeOptions } from '../operator/connection-options.ts';
import { planDeployment, type DeploymentPlan } from '../../kinds/model-deployment/deployment-plan.ts';
import { loadProviderCatalog, type ProviderCatalog } from '../../kinds/model-deployment/provider-catalog.ts';
import { action, type CommandRegistration } from '../program.ts';

interface ExplainOptions extends KubeOptions {
  filename: string[];
  providerConfig?: string[];
  cluster?: boolean;
  output: 'text' | 'json';
}

export interface Explanation {
  source: string;
  object: string;
  valid: boolean;
  errors: DeploymentPlan['validation']['errors'];
  warnings: DeploymentPlan['validation']['warnings'];
  /** The provider the controller selects; none for an invalid spec (the controller stops at validation). */
  selected: ProviderChoice | null;
  /** For an invalid spec: the provider selection would pick once the spec is valid. */
  selectedOnceValid: ProviderChoice | null;
  selectionError: string | null;
  notSelected: ProviderChoice[];
  /** Selection rules that failed, as "<provider>: rule N (<condition>) failed: <error>"; each counted as not matching. */
  ruleErrors: string[];
  compatibility: { compatible: boolean; errors: string[]; warnings: string[] } | null;
  /** Whether the controller could go on to create the provider resource. */
  deployable: boolean;
}

export const explainCommand: CommandRegistration = (program: Command, { io }) => {
  const command = program
    .command('explain')
    .description('Show which provider would be selected for ModelDeployments, and why the others would not.')
    .requiredOption('-f, --filename <path...>', 'ModelDeployment manifest, directory, or - for stdin (repeatable)')
    .option('--provider-config <path...>', 'InferenceProviderConfig manifests to select with (replace configs of the same name)')
    .option('--cluster', "select with the cluster's InferenceProviderConfigs instead of the built-in ones (default: offline)")
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'));
  withKubeOptions(command).action(action((options: ExplainOptions) => runExplain(io, options)));
};

export async function runExplain(io: CliIO, options: ExplainOptions): Promise<number> {
  if (!options.cluster && (options.kubeconfig || options.context)) throw new CliError('--kubeconfig and --context need --cluster: explain is offline by default.');
  // Loaded on demand: offline runs must not pay for the Kubernetes client.
  const cluster = options.cluster ? await (await import('../cluster-provider-configs.ts')).readClusterProviderConfigs(options) : undefined;
  const catalog = await loadProviderCatalog(io, options.providerConfig, cluster?.configs);
  const docs = await readManifests(io, options.filename);
  if (docs.length === 0) throw new CliError(`No objects found in ${options.filename.join(', ')}.`);
  const wrongKind = docs.find((d) => kindOf(d) !== MODEL_DEPLOYMENT_KIND);
  if (wrongKind) {
    throw new CliError(`${wrongKind.source} holds ${describeObject(wrongKind)}; explain takes ModelDeployments (pass provider configs with --provider-config).`);
  }

  const explanations = docs.map((doc) => explain(planDeployment(doc, catalog), catalog));
  if (options.output === 'json') io.stdout(formatJson(explanations));
  else {
    if (cluster) io.stdout(`Provider configs from the cluster at ${cluster.server}: ${cluster.configs.length > 0 ? catalog.names.join(', ') : 'none registered'}\n\n`);
    io.stdout(explanations.map(textExplanation).join('\n'));
  }
  return explanations.every((e) => e.deployable) ? 0 : 1;
}

function explain(plan: DeploymentPlan, catalog: ProviderCatalog): Explanation {
  const explicit = explicitProvider(plan.md.spec);
  // Selection stops at an explicit name; say so for every other provider instead of listing nothing.
  const notSelected = explicit
    ? catalog.names.filter((n) => n !== explicit).map((name) => ({ name, reason: `not considered: spec.provider.name is '${explicit}'` }))
    : plan.selection.rejected;
  const valid = plan.validation.errors.length === 0;
  const selected = plan.selection.selected ?? null;
  return {
    source: plan.doc.source,
    object: describeObject(plan.doc),
    valid,
    errors: plan.validation.errors,
    warnings: plan.validation.warnings,
    selected: valid ? selected : null,
    selectedOnceValid: valid ? null : selected,
    selectionError: valid ? (plan.selection.error ?? null) : 'the controller selects a provider only for a valid spec',
    notSelected,
    ruleErrors: plan.selection.ruleErrors.map((e) => `${e.provider}: ${describeRuleError(e)}`),
    // Not checked for an invalid spec: the controller never asks the provider.
    compatibility: valid ? (plan.compatibility ?? null) : null,
    deployable: plan.problems.length === 0,
  };
}

function textExplanation(e: Explanation): string {
  const lines = [`${e.source}: ${e.object}`];
  const counts = e.errors.length + e.warnings.length > 0 ? ` (${countIssues(e)})` : '';
  lines.push(`  spec: ${e.valid ? 'valid' : 'invalid'}${counts}`);
  const issues = issueLines(e, '    ').trimEnd();
  if (issues) lines.push(issues);

  const onceValid = e.selectedOnceValid ? `; once it is valid: ${e.selectedOnceValid.name} (${e.selectedOnceValid.reason})` : '';
  if (e.selected) lines.push(`  selected: ${e.selected.name} (${e.selected.reason})`);
  else lines.push(`  selected: none (${e.selectionError ?? 'no provider matched'}${onceValid})`);

  if (e.compatibility) {
    lines.push(`  compatibility: ${e.compatibility.compatible ? 'compatible' : 'incompatible'}`);
    for (const error of e.compatibility.errors) lines.push(`    error   ${error}`);
    for (const warning of e.compatibility.warnings) lines.push(`    warning ${warning}`);
  } else if (e.selected) {
    lines.push('  compatibility: unknown (no built-in implementation of this provider)');
  }

  if (e.notSelected.length > 0) {
    lines.push('  not selected:');
    for (const r of e.notSelected) lines.push(`    ${r.name}: ${r.reason}`);
  }
  // Also those of a provider that won through another rule: a broken rule is worth knowing either way.
  if (e.ruleErrors.length > 0) {
    lines.push('  rule errors (each counts as not matching):');
    for (const r of e.ruleErrors) lines.push(`    ${r}`);
  }
  return `${lines.join('\n')}\n`;
}
