// `kubeairunway conformance`: renders every built-in provider's resource for the golden inputs, the
// repository's examples and any manifests given with -f, in every API version the cluster serves and
// kubeairunway renders, and sends each one to the cluster as a server-side dry-run create with
// fieldValidation=Strict. Reports per object: accepted, refused (the API server's message) or pruned
// (fields sent that the answer does not hold). Exit code 1 when anything is refused, pruned or cannot be
// checked, or a CRD serves no version kubeairunway renders; a provider whose CRD is not installed is
// skipped. Nothing is created: every request is a dry run.

import { Option, type Command } from 'commander';
import { withKubeOptions } from '../operator/connection-options.ts';
import { outputOption } from '../operator/output.ts';
import { action, type CommandRegistration } from '../program.ts';
import type { ConformanceOptions } from '../conformance/run.ts';

export const conformanceCommand: CommandRegistration = (program: Command, { io }) => {
  const command = program
    .command('conformance')
    .description("Check that the cluster's installed provider CRDs accept every object kubeairunway renders (server-side dry-run, nothing is created).")
    .option('-n, --namespace <name>', 'existing namespace to dry-run the objects in', 'default')
    .addOption(new Option('--target <name...>', 'check only these kinds (default: all)').choices(['deployment', 'kaito', 'dynamo', 'kuberay', 'keda', 'httproute', 'inferencepool']))
    .option('-f, --filename <path...>', 'also render and check these ModelDeployment / AsyncActor manifests (file, directory, or - for stdin)')
    .option('--no-examples', "leave out the repository's examples/")
    .option('--no-golden', 'leave out the golden inputs (the renderings the test suite pins)')
    .addOption(outputOption());
  withKubeOptions(command).action(
    action(async (options: ConformanceOptions) => {
      // Loaded on demand: `--help` and the other commands do not pay for the Kubernetes client.
      const { runConformance } = await import('../conformance/run.ts');
      return runConformance(io, options);
    }),
  );
};
