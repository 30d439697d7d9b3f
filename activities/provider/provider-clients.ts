import type { KubeConfig } from '@kubernetes/client-node';
import { providerFieldManager } from '../../api/constants.ts';
import type { ModelDeployment } from '../../api/types.ts';
import { activityFailure } from '../../contract/failure-types.ts';
import type { ObjectRef } from '../../contract/object-ref.ts';
import { CustomObjects, splitApiVersion, type AnyObject, type ResourceRef } from '../../kube/custom-objects.ts';
import { kubeCall } from '../../kube/errors.ts';
import { EventRecorder, type EventRecord } from '../../kube/events.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { readCrd } from '../../kube/installed-crd.ts';
import type { ProviderDefinition } from '../../providers/contract.ts';
import { providerCrdRef } from '../../providers/crd-version.ts';
import { involved, MODEL_DEPLOYMENT } from '../deployment-ref.ts';
import { KindClient } from '../kind/kind-client.ts';
import { DEFAULT_GATEWAY_DEFAULTS, GatewayLookup, gatewayKinds, type GatewayDefaults } from './gateway-lookup.ts';

export interface ProviderActivityDeps {
  kc: KubeConfig;
  /** The process's shared informers: the deployment, the CRD and the provider's resources are read from their caches when those can answer. */
  informers?: InformerSet;
  /**
   * Told about every provider resource this process writes, as the API server stores it (for a create,
   * told first what it will look like, so the watch event cannot outrun the news): the resource watch
   * then knows the echo of that write is not news and wakes no workflow for it.
   */
  wrote?: (stored: AnyObject) => void;
  /**
   * Told before the cleanup deletes a provider resource: when the API server removes it at once, the
   * cleanup's caller knows it is gone, so the watch's echo of that deletion wakes no workflow. The
   * function returned takes that back (finalizers hold the resource: its deletion will be news).
   */
  expectRemoval?: (obj: AnyObject) => () => void;
  /** The controller's routing settings (--gateway-* flags): which Gateway, and what a route points at. */
  gateway?: GatewayDefaults;
}

/** The shared parts a test hands in instead of the ones built on `kc`. */
export interface ProviderClientParts {
  objects?: CustomObjects;
  recorder?: EventRecorder;
  /** The provider's CRD as installed (undefined: missing). */
  providerCrd?: () => Promise<unknown>;
}

/** What one provider's activities share: the definition, the object and event clients, the Gateway lookup. */
export interface ProviderClients {
  provider: ProviderDefinition;
  deps: ProviderActivityDeps;
  objects: CustomObjects;
  fieldManager: string;
  recorder: EventRecorder;
  deployments: KindClient<ModelDeployment>;
  gateways: GatewayLookup;
  /** The provider's CRD as installed, from the CRD watch when it covers it. */
  providerCrd: () => Promise<unknown>;
  /** Where a rendered object lives: only the provider's owned kinds (and routing's) may be rendered. */
  refOf(obj: { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } }): ResourceRef;
  /** An event written before the activity goes on (its failure fails the activity). */
  record(ref: ObjectRef, event: EventRecord): Promise<void>;
}

export function providerClients(provider: ProviderDefinition, deps: ProviderActivityDeps, parts: ProviderClientParts = {}): ProviderClients {
  const objects = parts.objects ?? new CustomObjects(deps.kc);
  const fieldManager = providerFieldManager(provider.name);
  const recorder = parts.recorder ?? new EventRecorder(deps.kc, fieldManager);
  const plurals = new Map([...provider.ownedKinds, ...gatewayKinds].map((k) => [k.kind, k.plural]));
  return {
    provider,
    deps,
    objects,
    fieldManager,
    recorder,
    deployments: new KindClient<ModelDeployment>(MODEL_DEPLOYMENT, { kc: deps.kc, informers: deps.informers, fieldManager, objects, recorder }),
    gateways: new GatewayLookup(objects, deps.informers, deps.gateway ?? DEFAULT_GATEWAY_DEFAULTS),
    providerCrd: parts.providerCrd ?? (() => readCrd(deps.kc, deps.informers, providerCrdRef(provider.resource))),
    refOf(obj) {
      const plural = plurals.get(obj.kind);
      if (!plural) throw activityFailure('ProviderBug', `provider ${provider.name} rendered a ${obj.kind}, which is not among its owned kinds`);
      return { ...splitApiVersion(obj.apiVersion), plural, namespace: obj.metadata.namespace, name: obj.metadata.name };
    },
    record: (ref, event) => kubeCall('record event', () => recorder.record(involved(ref), event)),
  };
}
