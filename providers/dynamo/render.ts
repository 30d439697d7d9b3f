// ModelDeployment → DynamoGraphDeployment, seed 001 Examples 1 and 3: a Frontend (router) plus one
// worker in aggregated mode, or prefill and decode workers in disaggregated mode, in the shape of the
// API version the cluster serves (seed 001 §4.10): nvidia.com/v1beta1 (`spec.components`, a list with a
// pod template each) when it is served, else nvidia.com/v1alpha1 (`spec.services`, a map). What the
// graph holds is decided once (components.ts); shape-v1alpha1.ts and shape-v1beta1.ts only spell it.
// The graph's name is the ModelDeployment's, hash-shortened when the operator could not use it (see
// shared/names.ts).

import type { ModelDeployment } from '../../api/types.ts';
import type { RenderContext, RenderResult } from '../contract.ts';
import { assertSupportedApiVersion } from '../shared/api-version.ts';
import { canonicalObject } from '../shared/rendered-object.ts';
import { objectMeta } from '../shared/metadata.ts';
import { providerResourceName, renamedWarning } from '../shared/names.ts';
import { resolveSpec } from '../shared/spec.ts';
import { modelStorage } from '../shared/storage.ts';
import { graphOf } from './components.ts';
import { DYNAMO_RESOURCE } from './config.ts';
import { MAX_GRAPH_NAME } from './defaults.ts';
import { servicesV1alpha1 } from './shape-v1alpha1.ts';
import { componentsV1beta1 } from './shape-v1beta1.ts';

export function renderDynamo(md: ModelDeployment, context: RenderContext): RenderResult {
  assertSupportedApiVersion(DYNAMO_RESOURCE, context.apiVersion);
  const spec = resolveSpec(md);
  const storage = modelStorage(md);
  const graph = graphOf(spec, storage);
  const graphName = providerResourceName(spec.name, MAX_GRAPH_NAME);
  const renamed = graphName !== spec.name ? [renamedWarning(DYNAMO_RESOURCE.kind, spec.name, graphName, MAX_GRAPH_NAME)] : [];
  const warnings = [...graph.engineWarnings, ...renamed, ...graph.warnings];

  const body =
    context.apiVersion === `${DYNAMO_RESOURCE.group}/v1beta1`
      ? { backendFramework: graph.engine, components: componentsV1beta1(graph) }
      : { backendFramework: graph.engine, services: servicesV1alpha1(graph, graphName) };
  const object = {
    apiVersion: context.apiVersion,
    kind: DYNAMO_RESOURCE.kind,
    metadata: objectMeta(spec, graphName),
    spec: body,
  };
  return { objects: [canonicalObject(object), ...storage.claims], warnings };
}
