// FlameClusters in `validate` and `render` (loaded by those commands only).

import { checkFlameCluster, renderFlameDocument } from '../../cli/flame.ts';
import type { OfflineHandlers } from '../kind-module.ts';

const issue = (w: { field: string; message: string }) => `${w.field}: ${w.message}`;

export const flameOffline: OfflineHandlers = {
  validate: (doc) => checkFlameCluster(doc),
  render(doc) {
    const warnings = checkFlameCluster(doc).warnings.map(issue);
    const rendered = renderFlameDocument(doc);
    if (rendered.problems.length > 0) return { objects: [], problems: rendered.problems, warnings };
    return { objects: rendered.objects, problems: [], warnings };
  },
};
