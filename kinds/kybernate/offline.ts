// The Kybernate kinds in `validate` and `render` (loaded by those commands only). A restore renders
// against its checkpoint and the checkpointed pod when they are given beside it.

import { checkKybernate, renderKybernateDocument, RESTORE_SOURCE_KINDS } from './manifests.ts';
import { CHECKPOINT_KIND } from '../../api/kybernate/constants.ts';
import type { OfflineHandlers } from '../kind-module.ts';
import { kindOf } from '../../present/documents.ts';

const issue = (w: { field: string; message: string }) => `${w.field}: ${w.message}`;

export const kybernateOffline: OfflineHandlers = {
  validate: (doc) => checkKybernate(doc),
  render(doc, session) {
    const warnings = checkKybernate(doc).warnings.map(issue);
    const checkpoints = session.docs.filter((d) => kindOf(d) === CHECKPOINT_KIND);
    const pods = session.docs.filter((d) => RESTORE_SOURCE_KINDS.includes(kindOf(d) ?? ''));
    const result = renderKybernateDocument(doc, { checkpoints, pods });
    if (result.problems.length > 0) return { objects: [], problems: result.problems, warnings };
    const note = 'nothing' in result ? result.nothing : undefined;
    return { objects: result.objects, problems: [], warnings: [...warnings, ...result.warnings], ...(note ? { note } : {}) };
  },
};
