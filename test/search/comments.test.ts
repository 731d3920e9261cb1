/**
 * Comments and replies in the search index follow the review mirror: a refresh, an offline
 * edit or reply (and its sending), a comment gone from the server, a space no longer synced.
 * Against the fake API, through the review service, as the app and the CLI drive it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { CommentHit } from '../../src/main/core/mirror';
import { migrations } from '../../src/main/core/mirror/migrations';
import { openDatabase } from '../../src/main/core/mirror/database';
import { Mirror } from '../../src/main/core/mirror';
import { reviewWorld, seedReview, type ReviewWorld } from '../review/setup';
import { tempDir } from '../helpers/cli';

let w: ReviewWorld;
let seeded: ReturnType<typeof seedReview>;

beforeEach(async () => {
  w = await reviewWorld();
  seeded = seedReview(w);
  await w.review.refresh(w.api);
});
afterEach(async () => {
  await w.close();
});

const find = (q: string) => w.mirror.search.search(q, { kinds: ['comment', 'reply'] }) as CommentHit[];

describe('comments in the search index', () => {
  it('are found by body and author after a refresh, with their change request and page', () => {
    const [hit] = find('screenshot');
    expect(hit).toMatchObject({
      kind: 'comment',
      id: seeded.crComment.id,
      commentId: seeded.crComment.id,
      author: 'Alice Reviewer',
      changeRequestId: seeded.open.id,
      changeRequestNumber: seeded.open.number,
      changeRequestSubject: 'Rewrite the guide',
      pageId: w.pages.Guide,
    });
    expect(find('"checked last week"')).toMatchObject([{ kind: 'reply', commentId: seeded.spaceComment.id, author: 'Bob Writer', changeRequestId: null }]);
    expect(
      find('author:bob')
        .map((h) => h.kind)
        .sort(),
    ).toEqual(['comment', 'reply', 'reply']);
    expect(find('old question')).toMatchObject([{ id: seeded.resolvedComment.id }]); // resolved ones too
  });

  it('follow an offline edit at once, and keep one entry once it is sent', async () => {
    // One's own comment: only its author may edit it.
    w.fake.store.comments.get(seeded.spaceComment.id)!.postedBy = w.fake.store.currentUser.id;
    await w.review.refresh(w.api, { sites: false, full: true });
    w.review.enqueue({ kind: 'editComment', commentId: seeded.spaceComment.id, body: 'Is this page still accurate?' });
    expect(find('accurate')).toMatchObject([{ id: seeded.spaceComment.id }]);
    expect(find('current')).toEqual([]);
    await w.review.sync(w.api);
    expect(find('accurate')).toMatchObject([{ id: seeded.spaceComment.id }]);
  });

  it('find an offline reply under its local id, then under the server’s', async () => {
    const action = w.review.enqueue({ kind: 'reply', commentId: seeded.crComment.id, body: 'Screenshot is in the zebra folder.' });
    expect(find('zebra')).toMatchObject([{ kind: 'reply', id: action.replyId, commentId: seeded.crComment.id }]);
    await w.review.sync(w.api);
    const hits = find('zebra');
    expect(hits).toHaveLength(1);
    expect(hits[0]!.id).not.toBe(action.replyId);
    expect(w.review.replies(seeded.crComment.id).map((r) => r.id)).toContain(hits[0]!.id);
  });

  it('find a comment posted offline, and its reply, under the server ids once sent', async () => {
    const post = w.review.enqueue({ kind: 'postComment', spaceId: w.space.id, pageId: w.pages.Welcome, body: 'Typo in the walrus paragraph.' });
    w.review.enqueue({ kind: 'reply', commentId: post.commentId!, body: 'Walrus fixed.' });
    expect(find('walrus').map((h) => h.commentId)).toEqual([post.commentId, post.commentId]);
    await w.review.sync(w.api);
    const hits = find('walrus');
    expect(hits).toHaveLength(2);
    const serverId = hits.find((h) => h.kind === 'comment')!.id;
    expect(serverId).not.toBe(post.commentId);
    expect(hits.map((h) => h.commentId)).toEqual([serverId, serverId]);
  });

  it('forget a comment the server no longer has, with its replies', async () => {
    w.fake.store.deleteComment(w.space.id, seeded.spaceComment.id);
    await w.review.refresh(w.api, { full: true });
    expect(find('current')).toEqual([]);
    expect(find('checked')).toEqual([]);
    expect(find('screenshot')).toHaveLength(1);
  });

  it('forget the comments of a space no longer synced', async () => {
    w.mirror.catalog.setSelected([w.space.id], false);
    await w.review.refresh(w.api);
    expect(find('screenshot OR current OR checked')).toEqual([]);
  });
});

describe('upgrading a mirror to the search schema', () => {
  it('indexes the comments and replies it already holds', async () => {
    const dir = tempDir();
    const before = openDatabase(
      dir,
      migrations.filter((m) => m.version < 13),
    );
    before.exec(`INSERT INTO review_users (id, display_name) VALUES ('u1', 'Émile Old')`);
    before.exec(`INSERT INTO comments (id, space_id, author_id, body, posted_at) VALUES ('c1', 's1', 'u1', 'Legacy remark about pelicans', '2026-01-01')`);
    before.exec(`INSERT INTO replies (id, comment_id, space_id, author_id, body, posted_at) VALUES ('r1', 'c1', 's1', NULL, 'Pelicans agreed', '2026-01-02')`);
    before.close();
    const mirror = Mirror.open(dir);
    try {
      expect(
        mirror.search
          .search('pelicans')
          .map((h) => h.kind)
          .sort(),
      ).toEqual(['comment', 'reply']);
      expect(mirror.search.search('emile')).toMatchObject([{ kind: 'comment', id: 'c1', author: 'Émile Old' }]);
    } finally {
      mirror.close();
    }
    const db = new Database(join(dir, '.quire', 'mirror.db'));
    expect(() => db.prepare(`INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)`).run()).not.toThrow();
    db.close();
  });
});
