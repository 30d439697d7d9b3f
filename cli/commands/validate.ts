// `kubeairunway validate -f FILE`: checks every registered kind offline (kinds/index.ts), each by its
// module's validation: ModelDeployments (and InferenceProviderConfigs) with the same validation the
// admission webhook runs, plus the explicit provider's override schema; FlameClusters, AsyncActors and
// the Kybernate kinds (KybernateCheckpoint, KybernateRestore, KybernateWorkload) with the validation
// their workflows run.

import { Option, type Command } from 'commander';
import type { ValidationResult } from '../../api/types.ts';
import { describeObject, kindOf, readManifests, type ManifestDocument } from '../../present/documents.ts';
import { CliError } from '../../present/errors.ts';
import { countIssues, formatJson, issueLines } from '../format.ts';
import type { CliIO } from '../io.ts';
import { loadOfflineModules, sentenceList, type OfflineModule } from '../offline-modules.ts';
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
  const modules = await loadOfflineModules();
  const reports = docs.map((doc) => validateDocument(doc, modules));

  if (options.output === 'json') io.stdout(formatJson(reports));
  else for (const report of reports) io.stdout(textReport(report));
  return reports.every((r) => r.valid) ? 0 : 1;
}

function validateDocument(doc: ManifestDocument, modules: readonly OfflineModule[]): DocumentReport {
  const result = asKubectlApplySeesIt(resultOf(doc, modules));
  return { source: doc.source, object: describeObject(doc), valid: result.errors.length === 0, ...result };
}

/**
 * `kubectl apply` asks the API server for strict field validation, which refuses an unknown field the
 * server would otherwise drop: what validation warns about, `kar validate` calls an error, in the words
 * of that refusal.
 */
function asKubectlApplySeesIt(result: ValidationResult): ValidationResult {
  const refused = result.warnings.filter((w) => w.unknownField);
  if (refused.length === 0) return result;
  return {
    errors: [...result.errors, ...refused.map((w) => ({ field: w.field, message: `unknown field "${w.field}": kubectl apply refuses it (strict decoding error); the schema does not declare it` }))],
    warnings: result.warnings.filter((w) => !w.unknownField),
  };
}

/** The validation of the module that takes the document's kind (every registered module's, kinds/index.ts). */
function resultOf(doc: ManifestDocument, modules: readonly OfflineModule[]): ValidationResult {
  const kind = kindOf(doc);
  const module = modules.find((m) => kind !== undefined && (m.rendered.includes(kind) || m.validateOnly.includes(kind)));
  if (module) return module.handlers.validate(doc);
  const kinds = modules.flatMap((m) => [...m.rendered, ...m.validateOnly]);
  return {
    errors: [{ field: 'kind', message: `kind must be ${sentenceList(kinds, 'or')}, got ${JSON.stringify(kind ?? null)}` }],
    warnings: [],
  };
}

function textReport(report: DocumentReport): string {
  const verdict = report.valid ? 'valid' : 'invalid';
  const counts = report.errors.length + report.warnings.length > 0 ? ` (${countIssues(report)})` : '';
  return `${report.source}: ${report.object} is ${verdict}${counts}\n${issueLines(report)}`;
}
