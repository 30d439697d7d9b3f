import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

// The custom search attributes that make the Temporal UI a history browser of every object, e.g.
//   Kind = "FlameCluster" AND K8sNamespace = "team-a" AND K8sPhase = "Failed"
// ModelDeployments keep their own (Md*), which histories recorded before other kinds existed carry:
//   MdNamespace = "team-a" AND MdPhase = "Failed"
export const Kind = defineSearchAttributeKey('Kind', SearchAttributeType.KEYWORD);
export const K8sNamespace = defineSearchAttributeKey('K8sNamespace', SearchAttributeType.KEYWORD);
export const K8sName = defineSearchAttributeKey('K8sName', SearchAttributeType.KEYWORD);
export const K8sPhase = defineSearchAttributeKey('K8sPhase', SearchAttributeType.KEYWORD);
export const MdNamespace = defineSearchAttributeKey('MdNamespace', SearchAttributeType.KEYWORD);
export const MdName = defineSearchAttributeKey('MdName', SearchAttributeType.KEYWORD);
export const MdProvider = defineSearchAttributeKey('MdProvider', SearchAttributeType.KEYWORD);
export const MdPhase = defineSearchAttributeKey('MdPhase', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [Kind, K8sNamespace, K8sName, K8sPhase, MdNamespace, MdName, MdProvider, MdPhase] as const;
