/**
 * What a page left for the writer says in the sync state: every reason a cycle can hold a page
 * for is worded (a kind the state did not know fell through to "left alone …: undefined").
 */
import { describe, expect, it } from 'vitest';
import { type SpaceFacts, syncState } from '../../src/main/core/status';

const space = (attention: SpaceFacts['attention']): SpaceFacts => ({
  spaceId: 'space1',
  title: 'Guide',
  folder: 'guide',
  reachedAt: '2026-11-26T10:00:00.000Z',
  failingSince: null,
  failedAt: null,
  failureKind: null,
  failureMessage: null,
  folderMissing: false,
  unsafe: null,
  conflicts: [],
  attention,
  refused: [],
  hold: null,
  pendingEdits: { modified: [], moved: [], added: [], deleted: [] },
});

const reasonsFor = (attention: SpaceFacts['attention']) =>
  syncState({ spaces: [space(attention)], pausedSince: null, actionsWaiting: [], actionsRefused: [] }, { syncing: false }).reasons;

describe('a page left for the writer, in the sync state', () => {
  it.each([
    ['page-title', 'summary-edit', /“Intro” is not the title of/],
    ['other-change-request', 'held-page', /only in change request #2/],
    ['unsafe', 'held-page', /is not pushed: an unclosed hint/],
    ['new-group', 'summary-edit', /is a new group/],
    ['symlink', 'unreadable', /is left alone .*symbolic link/],
    ['asset-in-use', 'asset-in-use', /still shows it/],
  ])('%s: a %s reason, worded', (reason, kind, words) => {
    const title = { 'page-title': 'Intro', 'other-change-request': 'it exists only in change request #2', unsafe: 'an unclosed hint' }[reason];
    const [r] = reasonsFor([{ reason, path: 'intro.md', key: 'p1', ...(title ? { title } : {}) }]);
    expect(r).toMatchObject({ kind, spaceId: 'space1', path: 'intro.md' });
    expect(r!.message).toMatch(words);
    expect(r!.message).not.toMatch(/undefined/);
  });
});
