// ModelDeployments (and InferenceProviderConfigs, validated only) in `validate` and `render` (loaded by
// those commands only). A deployment renders for the provider selection picks among the built-in configs
// and those given with --provider-config; what it renders is left for AsyncActors bound to it.

import { MODEL_DEPLOYMENT_KIND, PROVIDER_CONFIG_KIND } from '../../api/constants.ts';
import { explicitProvider } from '../../api/spec-helpers.ts';
import type { ProviderResourceType } from '../../providers/contract.ts';
import { findProvider } from '../../providers/index.ts';
import { modelDeploymentFacts } from '../asya/manifests.ts';
import { planDeployment } from './deployment-plan.ts';
import { checkModelDeployment, checkProviderConfig } from './objects.ts';
import { loadProviderCatalog, type ProviderCatalog } from './provider-catalog.ts';
import type { OfflineHandlers, OfflineSession } from '../kind-module.ts';
import { kindOf } from '../../present/documents.ts';
import type { Issue } from '../../api/types.ts';

const CATALOG = 'provider catalog';

export const modelDeploymentOffline: OfflineHandlers & { prepare(session: OfflineSession): Promise<void> } = {
  async prepare(session) {
    session.shared.set(CATALOG, await loadProviderCatalog(session.io, session.options.providerConfig));
  },
  validate(doc) {
    if (kindOf(doc) === PROVIDER_CONFIG_KIND) return checkProviderConfig(doc);
    const named = explicitProvider(doc.object.spec);
    const provider = findProvider(named ?? '');
    const { result } = checkModelDeployment(doc, provider ? { overrideSchema: provider.overrideSchema } : {});
    return named && !provider ? { ...result, warnings: [...result.warnings, unknowableProvider(named)] } : result;
  },
  render(doc, session) {
    const plan = planDeployment(doc, session.shared.get(CATALOG) as ProviderCatalog, { provider: session.options.provider });
    // The provider's compatibility check repeats the override warnings validation already gave (with their field): once is enough.
    const validated = new Set(plan.validation.warnings.map((w) => w.message));
    const warnings = [...plan.validation.warnings.map((w) => `${w.field}: ${w.message}`), ...(plan.compatibility?.warnings ?? []).filter((w) => !validated.has(w))];
    if (plan.problems.length > 0 || !plan.provider || !plan.selection.selected) {
      // Validation and the provider's compatibility check may both name one bad override: say it once.
      return { objects: [], problems: [...new Set(plan.problems)], warnings };
    }
    const apiVersion = offlineApiVersion(plan.provider.resource, session.options.apiVersion);
    if ('error' in apiVersion) return { objects: [], problems: [apiVersion.error], warnings: [] };
    const result = plan.provider.render(plan.md, { apiVersion: apiVersion.apiVersion });
    const facts = session.facts.get(MODEL_DEPLOYMENT_KIND) ?? [];
    facts.push(modelDeploymentFacts(plan.md, result.objects[0], plan.provider.mapStatus(result.objects[0]).endpoint));
    session.facts.set(MODEL_DEPLOYMENT_KIND, facts);
    return { objects: result.objects, problems: [], warnings: [...warnings, ...result.warnings] };
  },
};

/**
 * A provider no built-in config names: whether the cluster registered it is the cluster's to say (the
 * admission webhook refuses a provider without an InferenceProviderConfig), so offline says it cannot
 * know instead of calling the spec valid as if it did.
 */
function unknowableProvider(name: string): Issue {
  return {
    field: 'spec.provider.name',
    message: `'${name}' is not a built-in provider: offline, whether your cluster registered it (an InferenceProviderConfig named '${name}') cannot be known, and the admission webhook refuses it if not; \`kar explain --cluster -f FILE\` selects with the cluster's providers`,
  };
}

/**
 * The version asked for with --api-version in the provider's group, else the provider's preferred one:
 * with no cluster to ask, render shows what a cluster with the provider's current CRD gets.
 */
function offlineApiVersion(resource: ProviderResourceType, asked: readonly string[] | undefined): { apiVersion: string } | { error: string } {
  const supported = resource.versions.map((v) => `${resource.group}/${v}`);
  const wanted = asked?.find((a) => a.split('/')[0] === resource.group);
  if (wanted === undefined) return { apiVersion: `${resource.group}/${resource.versions[0]}` };
  if (supported.includes(wanted)) return { apiVersion: wanted };
  return { error: `--api-version ${wanted}: ${resource.kind} is rendered in ${supported.join(' or ')}` };
}
