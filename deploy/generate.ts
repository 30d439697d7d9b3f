// `npm run manifests`: writes deploy/install.yaml, the whole install in one file. Run it after changing
// anything under deploy/ (or after `npm run crds`); a test fails while the committed file is stale.

import { writeFileSync } from 'node:fs';
import { INSTALL_FILE, renderInstall } from './render.ts';

writeFileSync(INSTALL_FILE, renderInstall());
console.log('wrote deploy/install.yaml');
