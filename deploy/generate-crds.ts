// `npm run crds`: writes deploy/crds/*.yaml from the CRDs the kind modules register (deploy/crd-files.ts).
// Then `npm run manifests` lists them in deploy/kustomization.yaml and deploy/install.yaml.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crdToYaml } from '../api/crd/serialize.ts';
import { crdFiles } from './crd-files.ts';
import { DEPLOY_DIR } from './render.ts';

const CRD_DIR = join(DEPLOY_DIR, 'crds');
mkdirSync(CRD_DIR, { recursive: true });
for (const { file, crd } of crdFiles()) {
  writeFileSync(join(CRD_DIR, file), crdToYaml(crd));
  console.log(`wrote deploy/crds/${file}`);
}
