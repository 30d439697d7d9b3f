// `npm run crds`: writes deploy/crds/*.yaml from the schema source in api/crd/.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crdFiles } from './crds.ts';
import { crdToYaml } from './serialize.ts';

export const CRD_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'deploy', 'crds');

mkdirSync(CRD_DIR, { recursive: true });
for (const { file, crd } of crdFiles) {
  writeFileSync(join(CRD_DIR, file), crdToYaml(crd));
  console.log(`wrote deploy/crds/${file}`);
}
