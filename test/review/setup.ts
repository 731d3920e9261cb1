/** A fake API seeded with review data, a mirror selecting its space, and a review service over both. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, type ApiClientOptions } from '../../src/main/core/api/client';
import { Mirror } from '../../src/main/core/mirror';
import { ReviewService } from '../../src/main/core/review';
import { refreshCatalog } from '../../src/main/core/sync/catalog';
import { startFakeApi, type FakeApi } from '../fake';
import type { ChangeRequestRec, CommentRec, OrgRec, SpaceRec, UserRec } from '../fake/model';

export interface ReviewWorld {
  fake: FakeApi;
  org: OrgRec;
  space: SpaceRec;
  alice: UserRec;
  bob: UserRec;
  /** Page ids of the space by title. */
  pages: Record<string, string>;
  dir: string;
  mirror: Mirror;
  review: ReviewService;
  api: ApiClient;
  /** A client with different options (e.g. a scripted fetch) against the same fake. */
  client(options?: Partial<ApiClientOptions>): ApiClient;
  /** Closes the mirror and opens the folder again, as a restarted app would. */
  reopen(): void;
  close(): Promise<void>;
}

export async function reviewWorld(): Promise<ReviewWorld> {
  const fake = await startFakeApi();
  const { store } = fake;
  const org = store.addOrg({ title: 'Acme' });
  const alice = store.addUser({ displayName: 'Alice Reviewer' });
  const bob = store.addUser({ displayName: 'Bob Writer' });
  const space = store.addSpace(org.id, {
    title: 'Handbook',
    pages: [
      { title: 'Welcome', markdown: 'Hello.\n' },
      { title: 'Guide', markdown: 'Step one.\nStep two.\n' },
    ],
  });
  const pages = Object.fromEntries([...store.currentRevision(space.id).pages.values()].map((p) => [p.title, p.id]));
  const dir = mkdtempSync(join(tmpdir(), 'quire-review-'));
  const client = (options: Partial<ApiClientOptions> = {}) =>
    new ApiClient({ baseUrl: fake.url, token: fake.token, maxAttempts: 2, random: () => 0, ...options });
  const api = client();
  const world: ReviewWorld = {
    fake,
    org,
    space,
    alice,
    bob,
    pages,
    dir,
    mirror: Mirror.open(dir),
    review: undefined as unknown as ReviewService,
    api,
    client,
    reopen() {
      world.mirror.close();
      world.mirror = Mirror.open(dir);
      world.review = new ReviewService(world.mirror);
    },
    async close() {
      world.mirror.close();
      await fake.close();
    },
  };
  world.review = new ReviewService(world.mirror);
  await refreshCatalog(api, world.mirror);
  world.mirror.catalog.setSelected([space.id], true);
  return world;
}

/** Seeds the usual review state: change requests of every status, comments with replies and reactions. */
export function seedReview(w: ReviewWorld): {
  open: ChangeRequestRec;
  draft: ChangeRequestRec;
  archived: ChangeRequestRec;
  merged: ChangeRequestRec;
  spaceComment: CommentRec;
  resolvedComment: CommentRec;
  crComment: CommentRec;
} {
  const { store } = w.fake;
  const open = store.addChangeRequest(w.space.id, { subject: 'Rewrite the guide', createdBy: w.bob.id });
  store.editPage(w.space.id, w.pages.Guide!, { markdown: 'Step one.\nStep two, better.\nStep three.\n' }, { changeRequest: open.id });
  const draft = store.addChangeRequest(w.space.id, { subject: 'Draft idea', status: 'draft' });
  const archived = store.addChangeRequest(w.space.id, { subject: 'Abandoned' });
  store.updateChangeRequestFields(w.space.id, archived.id, { status: 'archived' });
  const merged = store.addChangeRequest(w.space.id, { subject: 'Typo fix' });
  store.mergeChangeRequest(w.space.id, merged.id);

  const spaceComment = store.addComment(w.space.id, { body: 'Is this page current?', page: w.pages.Welcome, by: w.alice.id });
  store.addReply(w.space.id, spaceComment.id, { body: 'Yes, checked last week.', by: w.bob.id });
  store.addReply(w.space.id, spaceComment.id, { body: 'Thanks!', by: w.alice.id });
  store.updateComment(spaceComment, { addedReactions: ['👍'] }, w.bob.id);
  const resolvedComment = store.addComment(w.space.id, { body: 'Old question', by: w.bob.id, resolved: true });
  const crComment = store.addComment(w.space.id, { body: 'Step three needs a screenshot.', changeRequest: open.id, page: w.pages.Guide, by: w.alice.id });
  store.addReply(w.space.id, crComment.id, { body: 'Adding one.', by: w.bob.id, changeRequest: open.id });
  return { open, draft, archived, merged, spaceComment, resolvedComment, crComment };
}
