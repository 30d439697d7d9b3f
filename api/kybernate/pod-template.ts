// What a KybernateWorkload's pod template must hold for the workflow to create a pod from it, which
// the CRD cannot check (it keeps the template as given): a refinement of the template's schema node
// (api/crd/kybernate-workload-schema.ts), run by the schema interpreter where the template is checked. Pure.

import { isObject, typeName } from '../common/checks.ts';
import type { Refinement } from '../schema/typed.ts';

/** What the workflow needs of the pod template to create a pod from it, which the CRD cannot check. */
export const checkPodTemplate: Refinement = (value, path, report) => {
  if (!isObject(value)) return;
  const template = value;
  const spec = template.spec;
  if (!isObject(spec)) {
    report(`${path}.spec`, 'required: a pod spec with at least one container');
    return;
  }
  const containers = spec.containers;
  if (!Array.isArray(containers) || containers.length === 0) {
    report(`${path}.spec.containers`, 'required: a list of at least one container');
    return;
  }
  const seen = new Set<string>();
  containers.forEach((container, i) => {
    const at = `${path}.spec.containers[${i}]`;
    if (!isObject(container)) {
      report(at, `must be a container object, got ${typeName(container)}`);
      return;
    }
    if (typeof container.name !== 'string' || container.name === '') report(`${at}.name`, 'required: every container has a name');
    else if (seen.has(container.name)) report(`${at}.name`, `duplicate container name "${container.name}"`);
    else seen.add(container.name);
    if (typeof container.image !== 'string' || container.image === '') report(`${at}.image`, 'required: every container has an image');
  });
};
