import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { composeTagged, IMAGE_REPOSITORY, kustomizationTagged, packageJson, taggedKustomizations } from './release-version.ts';
import { DEPLOY_DIR } from './render.ts';

const images = (tag: string) => ['images:', '  - name: other', '    newName: example.com/other', '    newTag: v9', '  - name: kubeairunway', `    newName: ${IMAGE_REPOSITORY}`, `    newTag: ${tag}`, ''].join('\n');

describe('the release version in the files that name the controller image', () => {
  it("sets our image's tag in a kustomization and leaves other images alone", () => {
    expect(kustomizationTagged(images('v0.0.1'), '1.2.3')).toBe(images('v1.2.3'));
  });

  it('refuses a kustomization with no entry for our image', () => {
    expect(() => kustomizationTagged('images:\n  - name: other\n    newName: example.com/other\n    newTag: v9\n', '1.2.3')).toThrow(IMAGE_REPOSITORY);
  });

  it("sets the compose file's default image and keeps the variable that overrides it", () => {
    const line = (tag: string) => `    image: \${KUBEAIRUNWAY_IMAGE:-${IMAGE_REPOSITORY}:${tag}}\n`;
    expect(composeTagged(line('v0.0.1'), '1.2.3')).toBe(line('v1.2.3'));
  });

  it("finds the base, the providers' and the node component's kustomizations, each at package.json's version", () => {
    const files = taggedKustomizations();
    expect(files).toEqual(expect.arrayContaining(['core/kustomization.yaml', 'providers/dynamo/kustomization.yaml', 'components/kybernate-node/kustomization.yaml']));
    for (const f of files) expect(readFileSync(join(DEPLOY_DIR, f), 'utf8')).toContain(`newTag: v${packageJson().version}\n`);
  });
});
