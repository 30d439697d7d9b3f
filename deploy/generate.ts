// `npm run manifests`: writes what deploy/ takes from the registered modules (deploy/generated-files.ts:
// their ClusterRoles and bindings, the users' roles, the lists of module folders and CRD files, and the
// workflow bundle's entry, workflows/index.ts), then
// deploy/install.yaml, the whole install in one file, then the Helm chart deploy/chart/ from install.yaml's
// objects (deploy/helm/). Run it after changing anything under deploy/ or
// a module's role (or after `npm run crds`); tests fail while a committed file is stale.

import { writeFileSync } from 'node:fs';
import { generatedFiles, shown } from './generated-files.ts';
import { chartFiles, writeChart } from './helm/chart.ts';
import { INSTALL_FILE, renderInstall } from './render.ts';

for (const file of generatedFiles()) {
  writeFileSync(file.path, file.text);
  console.log(`wrote ${shown(file)}`);
}
const install = renderInstall();
writeFileSync(INSTALL_FILE, install);
console.log('wrote deploy/install.yaml');
const chart = chartFiles(install);
writeChart(chart);
console.log(`wrote deploy/chart/ (${chart.length} files)`);
