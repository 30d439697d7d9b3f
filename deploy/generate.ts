// `npm run manifests`: writes what deploy/ takes from the registered modules (deploy/generated-files.ts:
// their ClusterRoles and bindings, the users' roles, the lists of module folders and CRD files, and the
// workflow bundle's entry, workflows/index.ts), then
// deploy/install.yaml, the whole install in one file. Run it after changing anything under deploy/ or
// a module's role (or after `npm run crds`); tests fail while a committed file is stale.

import { writeFileSync } from 'node:fs';
import { generatedFiles, shown } from './generated-files.ts';
import { INSTALL_FILE, renderInstall } from './render.ts';

for (const file of generatedFiles()) {
  writeFileSync(file.path, file.text);
  console.log(`wrote ${shown(file)}`);
}
writeFileSync(INSTALL_FILE, renderInstall());
console.log('wrote deploy/install.yaml');
