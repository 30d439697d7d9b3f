// The kinds the operator commands act on: every kind the controller reconciles (kinds/index.ts), by
// the names kubectl knows it by (its CRD's kind, plural and short names), each with what the commands
// show of it (kind-presentation.ts). Registering a kind there is all the commands need.

import { MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import type { CollectionRef } from '../../kube/custom-objects.ts';
import { REGISTERED_KINDS } from '../../kinds/index.ts';
import { CliError } from '../../present/errors.ts';
import { presentationFor, type KindPresentation } from './kind-presentation.ts';

export interface OperatorKind {
  /** The Kubernetes kind, e.g. `FlameCluster`: also its workflows' ID prefix and `Kind` search attribute. */
  kind: string;
  collection: Omit<CollectionRef, 'namespace'>;
  /** What a target or --kind may call it, lower-case: the kind, its plural and its short names. */
  names: readonly string[];
  /** For the list of known kinds in an error: `FlameCluster (flameclusters, fc)`. */
  label: string;
  presentation: KindPresentation;
}

/** A target without a kind is a ModelDeployment, as before there were other kinds. */
export const DEFAULT_KIND = MODEL_DEPLOYMENT_KIND;

/** The kinds with their names from their CRDs. */
export function operatorKinds(): readonly OperatorKind[] {
  return REGISTERED_KINDS.map(({ watched: k, crd }) => {
    const aliases = [k.collection.plural, ...(crd.spec.names.shortNames ?? [])];
    const names = [...new Set([k.kind, crd.spec.names.singular, ...aliases].map((n) => n.toLowerCase()))];
    return { kind: k.kind, collection: k.collection, names, label: `${k.kind} (${aliases.join(', ')})`, presentation: presentationFor(k.kind) };
  });
}

/** The kind a name means, case-insensitively; an unknown name is an error that lists the known kinds. */
export function resolveKind(name: string, kinds: readonly OperatorKind[] = operatorKinds()): OperatorKind {
  const wanted = name.toLowerCase();
  const found = kinds.find((k) => k.names.includes(wanted));
  if (!found) throw new CliError(`Unknown kind '${name}': the known kinds are ${kinds.map((k) => k.label).join(', ')}.`);
  return found;
}
