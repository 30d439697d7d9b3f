// Each registered module's ClusterRole (kinds/<module>/role.ts), as the file under deploy/core/ that
// `npm run manifests` writes and the staleness test compares.

import { join, relative } from 'node:path';
import { KIND_MODULES } from '../kinds/index.ts';
import { renderClusterRole } from '../kinds/rbac.ts';
import { DEPLOY_DIR } from './render.ts';

export interface RoleFile {
  /** Absolute path of deploy/core/<folder>/cluster-role.yaml. */
  path: string;
  text: string;
}

/** Every module's role file, in folder order. */
export function roleFiles(): RoleFile[] {
  return KIND_MODULES.map((m) => ({
    path: join(DEPLOY_DIR, 'core', m.role.folder, 'cluster-role.yaml'),
    text: renderClusterRole(m.role, `kinds/${m.name}/role.ts`),
  })).sort((a, b) => a.path.localeCompare(b.path));
}

/** The path relative to the repository, for messages. */
export function shown(file: RoleFile): string {
  return relative(join(DEPLOY_DIR, '..'), file.path);
}
