// `npm run manifests`: writes each registered module's ClusterRole (deploy/core/<folder>/cluster-role.yaml,
// from kinds/<module>/role.ts), then deploy/install.yaml, the whole install in one file. Run it after
// changing anything under deploy/ or a module's role (or after `npm run crds`); tests fail while a
// committed file is stale.

import { writeFileSync } from 'node:fs';
import { INSTALL_FILE, renderInstall } from './render.ts';
import { roleFiles, shown } from './roles.ts';

for (const file of roleFiles()) {
  writeFileSync(file.path, file.text);
  console.log(`wrote ${shown(file)}`);
}
writeFileSync(INSTALL_FILE, renderInstall());
console.log('wrote deploy/install.yaml');
