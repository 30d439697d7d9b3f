// What an AsyncActor's standalone pod template must hold, which the CRD cannot check (it keeps the
// template as given): a refinement of the template's schema node (api/crd/async-actor-schema.ts), run by
// the schema interpreter where the template is checked. Pure.

import { isObject } from '../common/checks.ts';
import type { Refinement } from '../schema/typed.ts';
import { INJECTED_VOLUMES, RUNTIME_CONTAINER, SIDECAR_CONTAINER } from './constants.ts';

/**
 * What the controller needs of a standalone pod template and the CRD cannot check (it keeps the template
 * as given): exactly one `asya-runtime` container, whose command the controller sets; no container named
 * `asya-sidecar`, which the controller adds; none of the volume names it adds.
 */
export const checkPodTemplate: Refinement = (value, path, report) => {
  if (!isObject(value)) return;
  const template = value;
  const spec = template.spec;
  if (!isObject(spec)) {
    report(`${path}.spec`, `required: a pod spec whose containers include one named '${RUNTIME_CONTAINER}'`);
    return;
  }
  const containers = spec.containers;
  if (!Array.isArray(containers) || containers.length === 0) {
    report(`${path}.spec.containers`, `required: a list of containers including one named '${RUNTIME_CONTAINER}'`);
    return;
  }
  let runtimes = 0;
  containers.forEach((container, i) => {
    const at = `${path}.spec.containers[${i}]`;
    if (!isObject(container) || typeof container.name !== 'string' || container.name === '') {
      report(`${at}.name`, 'required: every container has a name');
      return;
    }
    if (container.name === SIDECAR_CONTAINER) report(`${at}.name`, `'${SIDECAR_CONTAINER}' is reserved for the sidecar the controller adds`);
    if (container.name === RUNTIME_CONTAINER) {
      runtimes += 1;
      if (container.command != null) report(`${at}.command`, `must not be set: the controller runs '${RUNTIME_CONTAINER}' as <pythonExecutable> /opt/asya/asya_runtime.py`);
    }
  });
  if (runtimes !== 1) report(`${path}.spec.containers`, `must hold exactly one container named '${RUNTIME_CONTAINER}' (the handler's), found ${runtimes}`);
  const initContainers = Array.isArray(spec.initContainers) ? spec.initContainers : [];
  initContainers.forEach((container, i) => {
    const name = isObject(container) ? container.name : undefined;
    if (name === SIDECAR_CONTAINER || name === RUNTIME_CONTAINER) report(`${path}.spec.initContainers[${i}].name`, `'${String(name)}' is reserved for the containers the controller manages`);
  });
  const volumes = Array.isArray(spec.volumes) ? spec.volumes : [];
  volumes.forEach((volume, i) => {
    const name = isObject(volume) ? volume.name : undefined;
    if (typeof name === 'string' && INJECTED_VOLUMES.includes(name)) {
      report(`${path}.spec.volumes[${i}].name`, `'${name}' is reserved for the volumes the controller adds (${INJECTED_VOLUMES.join(', ')})`);
    }
  });
};
