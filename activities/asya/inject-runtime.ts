import type { AsyaActivities } from '../../contract/asya-activities.ts';
import { kubeCall } from '../../kube/errors.ts';
import { renderBindingScaledObject, renderInjection } from '../../render/asya/injection.ts';
import { renderRuntimeConfigMap } from '../../render/asya/render-runtime-script.ts';
import { applyAsAsya, CONFIG_MAPS, validActor, workloadResource, type AsyaClients } from './asya-clients.ts';
import { applyScaling } from './scaling.ts';

/** Adds runtime and sidecar to the bound workload (field manager `asya`, its owner's containers untouched) and scales by the binding's target. */
export function injectRuntime(asya: AsyaClients): AsyaActivities['injectRuntime'] {
  return async function injectRuntime(ref, binding) {
    const actor = await validActor(asya, ref);
    const { target } = binding;
    // The injected runtime mounts the namespace's shared runtime script, as a standalone workload does.
    const script = renderRuntimeConfigMap(target.namespace);
    await applyAsAsya(asya, { ...CONFIG_MAPS, namespace: target.namespace, name: script.metadata!.name! }, script);
    const workload = workloadResource(target.kind, target.namespace, target.name);
    const before = await kubeCall('read target', () => asya.objects.get(workload));
    const stored = await applyAsAsya(asya, workload, renderInjection(actor, target, binding.targetURL));
    const changed = before?.metadata?.resourceVersion !== stored.metadata?.resourceVersion;
    const scaled = actor.spec.scaling.enabled ? renderBindingScaledObject(actor, binding.scaleTarget) : undefined;
    return { changes: changed ? [`injected into ${target.kind}/${target.namespace}/${target.name}`] : [], scaling: await applyScaling(asya, actor, scaled) };
  };
}
