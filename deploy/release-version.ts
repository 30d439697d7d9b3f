// The release's version is written in one place, package.json. `npm run manifests` copies it (as the
// image tag v<version>) into the hand-kept files that name the controller image: every kustomization
// under deploy/ with an `images:` entry for it (so deploy/install.yaml too) and docker-compose.yml; the
// Helm chart takes it as its version and appVersion (helm/chart.ts); `kubeairunway version` prints it.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEPLOY_DIR } from './render.ts';

export interface PackageJson {
  name: string;
  version: string;
  description: string;
}

export const packageJson = (): PackageJson => JSON.parse(readFileSync(join(DEPLOY_DIR, '..', 'package.json'), 'utf8')) as PackageJson;

/** The controller image's tag for a version. */
export const imageTag = (version: string): string => `v${version}`;

export const IMAGE_REPOSITORY = 'ghcr.io/kubeairunway/kubeairunway';

/** The `newName: <our image>` line of a kustomization's `images:` entry and its `newTag` line after it. */
const IMAGE_ENTRY = new RegExp(`^(\\s+newName: ${IMAGE_REPOSITORY.replaceAll('.', '\\.')}\\n\\s+newTag: ).*$`, 'm');

/** The kustomizations under deploy/ that set the controller image's tag, relative to deploy/. */
export function taggedKustomizations(): string[] {
  const files = readdirSync(DEPLOY_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('kustomization.yaml') && !f.startsWith('chart/'));
  return files.filter((f) => IMAGE_ENTRY.test(readFileSync(join(DEPLOY_DIR, f), 'utf8'))).sort();
}

/** A kustomization with the controller image's `newTag` set to the version's tag. */
export function kustomizationTagged(text: string, version: string): string {
  return replaceOnce(text, IMAGE_ENTRY, `$1${imageTag(version)}`, `an images: entry for ${IMAGE_REPOSITORY}`);
}

/** docker-compose.yml with the controller's default image (`${KUBEAIRUNWAY_IMAGE:-…:TAG}`) at the version's tag. */
export function composeTagged(text: string, version: string): string {
  return replaceOnce(text, /(\$\{KUBEAIRUNWAY_IMAGE:-[^:}]+:)[^}]*\}/, `$1${imageTag(version)}}`, 'a ${KUBEAIRUNWAY_IMAGE:-…} image');
}

function replaceOnce(text: string, pattern: RegExp, replacement: string, what: string): string {
  if (!pattern.test(text)) throw new Error(`found no ${what} to set the version in`);
  return text.replace(pattern, replacement);
}
