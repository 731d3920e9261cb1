import type { CatalogVM, CommentVM, ConflictVM, SessionVM, SettingsVM, SiteVM, SyncStatusVM, ThreadVM } from '../../src/shared/contract';

export const signedIn: SessionVM = {
  signedIn: true,
  apiUrl: 'https://api.example.com',
  user: { id: 'u1', displayName: 'Casey Quire' },
  keychain: 'ok',
};

export const signedOut: SessionVM = { signedIn: false, apiUrl: 'https://api.example.com', user: null, keychain: 'ok' };

export function status(patch: Partial<SyncStatusVM> = {}): SyncStatusVM {
  return {
    state: 'in-sync',
    reasons: [],
    progress: null,
    paused: false,
    conflicts: 0,
    pendingActions: 0,
    editsWaiting: 0,
    lastReachedServerAt: null,
    offlineSince: null,
    message: null,
    seq: 1,
    changedAt: 0,
    ...patch,
  };
}

export const settings: SettingsVM = { folder: '/home/casey/Quire', notifications: true, host: 'web', canChooseFolder: false };

export const catalog: CatalogVM = {
  organizations: [{ id: 'o1', title: 'Acme' }],
  collections: [{ id: 'c1', organizationId: 'o1', parentId: null, title: 'Guides' }],
  spaces: [
    {
      id: 's1',
      organizationId: 'o1',
      collectionId: 'c1',
      title: 'Handbook',
      emoji: '📘',
      visibility: 'private',
      selected: true,
      folder: 'handbook',
      lastSyncAt: null,
      pendingEdits: 2,
      conflicts: 1,
      lastError: null,
      state: 'needs-you',
      reasons: [
        { kind: 'conflict', spaceId: 's1', path: 'guide/intro.md', message: 'guide/intro.md: edited here and on the server.', action: 'resolve-conflict' },
      ],
    },
    {
      id: 's2',
      organizationId: 'o1',
      collectionId: null,
      title: 'API',
      emoji: null,
      visibility: 'public',
      selected: false,
      folder: null,
      lastSyncAt: null,
      pendingEdits: 0,
      conflicts: 0,
      lastError: null,
      state: 'not-chosen',
      reasons: [],
    },
  ],
  refreshedAt: null,
};

export function comments(count: number): CommentVM[] {
  const authors = [
    { id: 'u2', displayName: 'Robin Reviewer' },
    { id: 'u3', displayName: 'Sam Okafor' },
  ];
  return Array.from({ length: count }, (_, i) => ({
    id: `c${i}`,
    spaceId: i % 2 ? 's1' : 's2',
    spaceTitle: i % 2 ? 'Handbook' : 'API',
    changeRequestId: i % 3 === 0 ? 'cr1' : null,
    changeRequestNumber: i % 3 === 0 ? 1 : null,
    pageId: 'p1',
    pageTitle: 'Welcome',
    author: authors[i % 2]!,
    postedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    markdown: `Comment number ${i}: please check this paragraph.`,
    status: 'open',
    replyCount: i % 4,
    reactions: [],
    pending: false,
  }));
}

export function thread(patch: Partial<ThreadVM> = {}): ThreadVM {
  return { ...comments(1)[0]!, replies: [], ...patch };
}

export const conflict: ConflictVM = {
  spaceId: 's1',
  spaceTitle: 'Handbook',
  path: 'guide/intro.md',
  pageId: 'p1',
  kind: 'both-changed',
  detectedAt: new Date().toISOString(),
  local: '# Intro\n\nMine line\n',
  remote: '# Intro\n\nTheir line\n',
  base: '# Intro\n\nBase line\n',
};

export const site: SiteVM = {
  id: 'site1',
  organizationId: 'o1',
  organizationTitle: 'Acme',
  title: 'Acme Docs',
  published: false,
  visibility: 'share-link',
  children: [
    {
      type: 'group',
      id: 'g1',
      title: 'Developers',
      children: [
        {
          type: 'section',
          id: 'sec1',
          title: 'API',
          path: 'api',
          isDefault: false,
          children: [{ type: 'site-space', id: 'ss1', title: 'API v1', path: 'v1', spaceId: 's2', isDefault: true, hidden: false }],
        },
      ],
    },
    { type: 'site-space', id: 'ss2', title: 'Loose space', path: 'loose', spaceId: null, isDefault: false, hidden: true },
  ],
  shareLinks: [{ id: 'l1', name: 'Partners', active: true, createdAt: '2026-01-01T00:00:00Z' }],
};
