/**
 * The Review view's two promises (issue 19): opening it online shows a refreshed list in under
 * a second for 50 change requests and 500 comments (the refresh a view opening asks for, then
 * the queries it shows: change requests, unresolved comments, the inbox); and an action taken
 * offline shows as pending in under 100 ms (queued, then the list read again with it pending).
 * In process, against the fake on loopback; the first mirroring of the folder is not counted.
 *
 *   npx tsx test/bench/review-view.ts 5 50     # a quick run with fewer change requests and comments
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../src/main/core/api/client';
import { Mirror } from '../../src/main/core/mirror';
import { ReviewService } from '../../src/main/core/review';
import { refreshCatalog } from '../../src/main/core/sync/catalog';
import { startFakeApi } from '../fake';

export async function benchReviewView(changeRequests = 50, comments = 500): Promise<Record<string, string | number>> {
  const fake = await startFakeApi();
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-review-view-'));
  const mirror = Mirror.open(dir);
  try {
    const { store } = fake;
    const users = Array.from({ length: 5 }, (_, i) => store.addUser({ displayName: `Reviewer ${i + 1}` }));
    const org = store.addOrg({ title: 'Bench', members: users.map((u) => u.id) });
    const space = store.addSpace(org.id, { title: 'Docs', pages: [{ title: 'Intro', markdown: 'Hello.\n' }] });
    const crs = Array.from({ length: changeRequests }, (_, i) => store.addChangeRequest(space.id, { subject: `Change ${i + 1}`, createdBy: users[i % 5]!.id }));
    for (let i = 0; i < comments; i++) {
      const cr = i % 4 === 0 ? undefined : crs[i % crs.length]!;
      const c = store.addComment(space.id, { body: `Comment ${i + 1}`, by: users[i % 5]!.id, ...(cr ? { changeRequest: cr.id } : {}) });
      if (i % 5 === 0) store.addReply(space.id, c.id, { body: 'Agreed.', by: users[(i + 1) % 5]!.id, ...(cr ? { changeRequest: cr.id } : {}) });
    }
    for (const cr of crs.slice(0, 5)) store.review.request(space.id, cr.id, [store.currentUser.id], cr.createdBy);

    const api = new ApiClient({ baseUrl: fake.url, token: fake.token });
    await refreshCatalog(api, mirror);
    mirror.catalog.setSelected([space.id], true);
    const review = new ReviewService(mirror);
    await review.sync(api); // the folder's first mirroring: not what opening the view costs

    // Some activity since: a new comment, a review, a reply.
    store.addComment(space.id, { body: 'New since', by: users[1]!.id, changeRequest: crs[0]!.id });
    store.review.submit(space.id, crs[1]!.id, { status: 'approved', by: users[2]!.id });
    const started = performance.now();
    fake.resetLog();
    await review.sync(api);
    const listed = {
      crs: review.changeRequests({ statuses: ['open', 'draft'] }).length,
      comments: review.unresolvedComments().length,
      inbox: review.inbox().length,
    };
    const openMs = performance.now() - started;
    const requests = fake.requests.length;

    fake.faults.offline = true;
    const target = review.unresolvedComments()[0]!;
    const offlineStart = performance.now();
    review.enqueue({ kind: 'reply', commentId: target.id, body: 'Offline reply' });
    const shown = review.replies(target.id).some((r) => r.pending) && review.unresolvedComments().length > 0;
    const pendingMs = performance.now() - offlineStart;

    return {
      data: `${changeRequests} change requests, ${comments} comments`,
      'review view opened online (refresh + lists): ms': `${Math.round(openMs)} (${requests} requests; ${listed.crs} change requests, ${listed.comments} comments, ${listed.inbox} inbox items; target < 1000)`,
      'offline action shown as pending: ms': `${pendingMs.toFixed(1)} (${shown ? 'shown' : 'NOT shown'}; target < 100)`,
    };
  } finally {
    mirror.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('review-view.ts')) {
  const [crs, comments] = process.argv.slice(2).map(Number);
  console.log(await benchReviewView(crs || undefined, comments || undefined));
}
