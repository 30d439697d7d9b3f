// `kubeairunway validate -f FILE`: checks ModelDeployments (and InferenceProviderConfigs) offline, with
// the same validation the admission webhook runs, plus the explicit provider's override schema; and
// FlameClusters, AsyncActors and the Kybernate kinds (KybernateCheckpoint, KybernateRestore,
// KybernateWorkload), with the validation their workflows run.

import { Option, type Command } from 'commander';
import { ASYNC_ACTOR_KIND } from '../../api/asya/constants.ts';
import { MODEL_DEPLOYMENT_KIND, PROVIDER_CONFIG_KIND } from '../../api/constants.ts';
import { FLAME_CLUSTER_KIND } from '../../api/flame/constants.ts';
import type { ValidationResult } from '../../api/types.ts';
import { explicitProvider } from '../../api/spec-helpers.ts';
import { findProvider } from '../../providers/index.ts';
import { describeObject, readManifests, type ManifestDocument } from '../documents.ts';
import { CliError } from '../errors.ts';
import { checkAsyncActor } from '../asya.ts';
import { checkFlameCluster } from '../flame.ts';
import { checkKybernate, KYBERNATE_DOCUMENT_KINDS } from '../kybernate.ts';
import { countIssues, formatJson, issueLines } from '../format.ts';
import type { CliIO } from '../io.ts';
import { checkModelDeployment, checkProviderConfig, kindOf } from '../objects.ts';
import { action, type CommandRegistration } from '../program.ts';

interface ValidateOptions {
  filename: string[];
  output: 'text' | 'json';
}

export interface DocumentReport {
  source: string;
  object: string;
  valid: boolean;
  errors: ValidationResult['errors'];
  warnings: ValidationResult['warnings'];
}

export const validateCommand: CommandRegistration = (program: Command, { io }) => {
  program
    .command('validate')
    .description('Check ModelDeployment, FlameCluster, AsyncActor and Kybernate manifests offline, as the cluster would.')
    .requiredOption('-f, --filename <path...>', 'manifest file, directory, or - for stdin (repeatable)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(action((options: ValidateOptions) => runValidate(io, options)));
};

export async function runValidate(io: CliIO, options: ValidateOptions): Promise<number> {
  const docs = await readManifests(io, options.filename);
  if (docs.length === 0) throw new CliError(`No objects found in ${options.filename.join(', ')}.`);
  const reports = docs.map(validateDocument);

  if (options.output === 'json') io.stdout(formatJson(reports));
  else for (const report of reports) io.stdout(textReport(report));
  return reports.every((r) => r.valid) ? 0 : 1;
}

function validateDocument(doc: ManifestDocument): DocumentReport {
  const result = resultOf(doc);
  return { source: doc.source, object: describeObject(doc), valid: result.errors.length === 0, ...result };
}

function resultOf(doc: ManifestDocument): ValidationResult {
  const kind = kindOf(doc);
  if (kind === MODEL_DEPLOYMENT_KIND) {
    const provider = findProvider(explicitProvider(doc.object.spec) ?? '');
    return checkModelDeployment(doc, provider ? { overrideSchema: provider.overrideSchema } : {}).result;
  }
  if (kind === PROVIDER_CONFIG_KIND) return checkProviderConfig(doc);
  if (kind === FLAME_CLUSTER_KIND) return checkFlameCluster(doc);
  if (kind === ASYNC_ACTOR_KIND) return checkAsyncActor(doc);
  if (kind !== undefined && KYBERNATE_DOCUMENT_KINDS.includes(kind)) return checkKybernate(doc);
  const kinds = [MODEL_DEPLOYMENT_KIND, PROVIDER_CONFIG_KIND, FLAME_CLUSTER_KIND, ASYNC_ACTOR_KIND, ...KYBERNATE_DOCUMENT_KINDS];
  return {
    errors: [{ field: 'kind', message: `kind must be ${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}, got ${JSON.stringify(kind ?? null)}` }],
    warnings: [],
  };
}

function textReport(report: DocumentReport): string {
  const verdict = report.valid ? 'valid' : 'invalid';
  const counts = report.errors.length + report.warnings.length > 0 ? ` (${countIssues(report)})` : '';
  return `${report.source}: ${report.object} is ${verdict}${counts}\n${issueLines(report)}`;
}
