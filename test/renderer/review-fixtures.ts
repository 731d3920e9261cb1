/** View models for the Review view's component tests: a change request with its detail, inbox items, review state. */
import type {
  ChangeRequestActionsVM,
  ChangeRequestDetailVM,
  ChangeRequestVM,
  InboxItemVM,
  ReviewStateVM,
  SpacePagesVM,
  SpaceTargetVM,
  ThreadVM,
} from '../../src/shared/contract';
import { thread } from './fixtures';

const now = () => new Date().toISOString();

export function changeRequest(patch: Partial<ChangeRequestVM> = {}): ChangeRequestVM {
  return {
    spaceId: 's1',
    spaceTitle: 'Handbook',
    id: 'cr1',
    number: 7,
    subject: 'Fix intro',
    status: 'open',
    outdated: false,
    comments: 1,
    createdBy: { id: 'u2', displayName: 'Robin Reviewer' },
    updatedAt: now(),
    reasons: ['review-requested'],
    pending: false,
    ...patch,
  };
}

export const noBlockers: ChangeRequestActionsVM = { merge: [], update: [], archive: [], reopen: [], edit: [], review: [], reviewers: [], comment: [] };

export function detail(patch: Partial<ChangeRequestDetailVM> = {}): ChangeRequestDetailVM {
  return {
    changeRequest: changeRequest(),
    description: null,
    canMerge: true,
    diff: [
      {
        pageId: 'p1',
        title: 'Intro',
        path: 'intro.md',
        previousPath: null,
        change: 'modified',
        before: 'a\nold\nc',
        after: 'a\nnew\nc',
        linesAdded: 1,
        linesRemoved: 1,
      },
    ],
    threads: [],
    reviews: [
      { id: 'rv1', reviewer: { id: 'u3', displayName: 'Sam Okafor' }, status: 'changes-requested', outdated: false, comment: 'Say who it is for.', at: now() },
    ],
    requestedReviewers: [{ id: 'u1', displayName: 'Casey Quire', requestedBy: { id: 'u2', displayName: 'Robin Reviewer' }, pending: null }],
    actions: { ...noBlockers, reopen: [{ code: 'open', message: 'it is already open' }] },
    receivesYourEdits: false,
    ...patch,
  };
}

export function inboxItem(patch: Partial<InboxItemVM> = {}): InboxItemVM {
  return {
    key: 'cr:cr1',
    group: 'needs-review',
    waitingOn: [],
    pinned: false,
    snoozed: null,
    reasons: ['review-requested'],
    unread: true,
    activityAt: now(),
    by: { id: 'u2', displayName: 'Robin Reviewer' },
    spaceId: 's1',
    spaceTitle: 'Handbook',
    changeRequest: changeRequest(),
    thread: null,
    ...patch,
  };
}

export function threadItem(t: ThreadVM = thread(), patch: Partial<InboxItemVM> = {}): InboxItemVM {
  return inboxItem({
    key: `thread:${t.id}`,
    group: 'mentions',
    reasons: ['mention'],
    changeRequest: null,
    thread: t,
    spaceId: t.spaceId,
    spaceTitle: t.spaceTitle,
    ...patch,
  });
}

export function reviewState(patch: Partial<ReviewStateVM> = {}): ReviewStateVM {
  return { refreshedAt: now(), online: true, pendingActions: 0, refused: [], ...patch };
}

export const pagesTree: SpacePagesVM[] = [
  {
    spaceId: 's1',
    title: 'Handbook',
    folder: 'handbook',
    pages: [
      { id: 'p1', title: 'Welcome', kind: 'document', path: 'README.md', sync: 'synced', changeRequest: null, why: null, children: [] },
      {
        id: 'p2',
        title: 'Guides',
        kind: 'group',
        path: null,
        sync: 'synced',
        changeRequest: null,
        why: null,
        children: [{ id: 'p3', title: 'Install', kind: 'document', path: 'guides/install.md', sync: 'synced', changeRequest: null, why: null, children: [] }],
      },
      { id: 'new:draft.md', title: 'Draft', kind: 'document', path: 'draft.md', sync: 'new', changeRequest: null, why: null, children: [] },
    ],
  },
];

export function target(patch: Partial<SpaceTargetVM> = {}): SpaceTargetVM {
  return {
    spaceId: 's1',
    spaceTitle: 'Handbook',
    state: 'open',
    changeRequestId: 'cr3',
    number: 3,
    subject: 'Edit “Install”',
    chosen: false,
    subjectByUser: false,
    pages: 1,
    setAside: [{ changeRequestId: 'cr2', number: 2, subject: 'Earlier topic', pages: 4 }],
    ...patch,
  };
}
