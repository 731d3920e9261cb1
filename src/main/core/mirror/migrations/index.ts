/**
 * Versioned schema migrations, one file per step, applied in order by database.ts.
 * Never edit a released migration: append a new one (and a file for it).
 */
import { catalogAndContent } from './v1-catalog-content';
import { reviewMirror } from './v2-review';
import { twoWaySync } from './v10-two-way-sync';
import { structuredHolds } from './v11-structured-holds';
import { folderTree } from './v12-folder-tree';
import { searchAndHistory } from './v13-search-history';
import { reviewLifecycle } from './v14-review-lifecycle';
import { syncState } from './v16-sync-state';
import { syncLogActivity } from './v17-sync-log-activity';
import { keptDeviations } from './v18-kept-deviations';
import { reviewActionClaims } from './v19-review-action-claims';
import { heldDeletes } from './v20-held-deletes';
import { keptPaths } from './v21-kept-paths';
import { openapiAndTranslations } from './v22-openapi-translations';
import { pendingReviews } from './v23-pending-reviews';
import { triageAndCheckouts } from './v24-triage-checkouts';
import { reviewLines } from './v25-review-lines';
import { pagesByType } from './v26-pages-by-type';
import { pushedRevision } from './v27-pushed-revision';
import { spaceCommentLists } from './v28-space-comment-lists';
import type { Migration } from './migration';

export type { Migration } from './migration';

export const migrations: Migration[] = [
  catalogAndContent,
  reviewMirror,
  twoWaySync,
  structuredHolds,
  folderTree,
  searchAndHistory,
  reviewLifecycle,
  syncState,
  syncLogActivity,
  keptDeviations,
  reviewActionClaims,
  heldDeletes,
  keptPaths,
  openapiAndTranslations,
  pendingReviews,
  triageAndCheckouts,
  reviewLines,
  pagesByType,
  pushedRevision,
  spaceCommentLists,
];
