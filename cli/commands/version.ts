// `kubeairunway version`: the release this CLI (and the controller image of the same release) is, read
// from package.json, the one place the version is written (the image tag, deploy/install.yaml and the
// Helm chart take it from there through `npm run manifests`).

import { PRODUCT_VERSION } from '../../worker/version.ts';
import { action, type CommandRegistration } from '../program.ts';

export const versionCommand: CommandRegistration = (program, { io }) => {
  program
    .command('version')
    .description('Print the kubeairunway version.')
    .action(
      action(async () => {
        io.stdout(`kubeairunway ${PRODUCT_VERSION}\n`);
        return 0;
      }),
    );
};
