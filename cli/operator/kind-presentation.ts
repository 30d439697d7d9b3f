// What the operator commands say and show of each kind: its status columns, how its workflows are
// found once the object (and its uid) is gone, and how the controller acknowledges a pause. Each kind's
// module (kinds/<module>/registration.ts) gives what differs from the defaults here; a kind that gives
// no status is shown by its workflow's view alone (object-status.ts).

import type { AnyObject } from '../../kube/custom-objects.ts';
import { REGISTERED_KINDS } from '../../kinds/index.ts';
import { SEARCH_ATTRIBUTE_NAMES as SA } from '../../workflows/engine/search-attribute-names.ts';
import { objectStatusView } from '../../present/object-status.ts';
import type { StatusView } from '../../present/status-format.ts';

export interface KindPresentation {
  /** What sentences call one: "when its watcher sees the deployment". */
  noun: string;
  /** What a pause leaves as it is, besides the object: "the controller leaves it and its pods …". */
  owns: string;
  /** The visibility query for the workflows of an object by namespace and name (its uid may be gone with it). */
  workflowsByName(namespace: string, name: string): string;
  status: StatusView;
  /**
   * Whether the object's own status shows that the controller acknowledged a pause (or resume). Absent:
   * the kind has no condition for it, and its workflow's view says (step `paused`, or another after a resume).
   */
  pauseAcknowledged?(obj: AnyObject, pause: boolean): boolean;
}

/** Every kind's workflows start with `Kind` and the object's namespace and name. */
function byKind(kind: string) {
  return (namespace: string, name: string) => `${SA.Kind} = "${kind}" AND ${SA.K8sNamespace} = "${namespace}" AND ${SA.K8sName} = "${name}"`;
}

export function presentationFor(kind: string): KindPresentation {
  const own = REGISTERED_KINDS.find((k) => k.watched.kind === kind)?.presentation;
  return { noun: kind, owns: 'what it owns', workflowsByName: byKind(kind), status: objectStatusView(kind), ...own };
}
