/**
 * Review mirror benchmark: 200 change requests with 5,000 comments across four
 * spaces. Measures the first mirroring, an idle refresh, and the
 * unresolved-comments query over the mirror.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../src/main/core/api/client';
import { Mirror } from '../../src/main/core/mirror';
import { ReviewService } from '../../src/main/core/review';
import { refreshCatalog } from '../../src/main/core/sync/catalog';
import { startFakeApi } from '../fake';

const SPACES = 4;
const CHANGE_REQUESTS = 200;
const COMMENTS = 5000;
/** One comment in five is on the space's main content, the rest on change requests. */
const SPACE_COMMENT_SHARE = 5;
const QUERY_RUNS = 31;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median and fastest of several runs, in ms. */
function timeQuery(fn: () => unknown): { median: number; min: number } {
  for (let i = 0; i < 3; i++) fn(); // warm the statement cache and the JIT
  const runs: number[] = [];
  for (let i = 0; i < QUERY_RUNS; i++) {
    const started = performance.now();
    fn();
    runs.push(performance.now() - started);
  }
  return { median: Number(median(runs).toFixed(2)), min: Number(Math.min(...runs).toFixed(2)) };
}

export async function benchReview(): Promise<Record<string, string | number>> {
  const fake = await startFakeApi();
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-review-'));
  const mirror = Mirror.open(dir);
  try {
    const { store } = fake;
    const org = store.addOrg({ title: 'Bench' });
    const users = Array.from({ length: 10 }, (_, i) => store.addUser({ displayName: `Reviewer ${i + 1}` }));
    const spaces = Array.from({ length: SPACES }, (_, i) =>
      store.addSpace(org.id, {
        title: `Space ${i + 1}`,
        pages: [
          { title: 'Intro', markdown: 'Hello.\n' },
          { title: 'Guide', markdown: 'Steps.\n' },
        ],
      }),
    );
    const changeRequests = Array.from({ length: CHANGE_REQUESTS }, (_, i) =>
      store.addChangeRequest(spaces[i % SPACES]!.id, { subject: `Change ${i + 1}`, status: i % 10 === 0 ? 'draft' : 'open' }),
    );
    for (let i = 0; i < COMMENTS; i++) {
      const by = users[i % users.length]!.id;
      const onSpace = i % SPACE_COMMENT_SHARE === 0;
      const cr = changeRequests[i % CHANGE_REQUESTS]!;
      const spaceId = onSpace ? spaces[i % SPACES]!.id : cr.spaceId;
      const comment = store.addComment(spaceId, {
        body: `Comment ${i + 1}: please check this paragraph.`,
        by,
        resolved: i % 2 === 1,
        ...(onSpace ? {} : { changeRequest: cr.id }),
      });
      if (i % 7 === 0)
        store.addReply(spaceId, comment.id, { body: 'Done.', by: users[(i + 1) % users.length]!.id, ...(onSpace ? {} : { changeRequest: cr.id }) });
    }

    const api = new ApiClient({ baseUrl: fake.url, token: fake.token });
    await refreshCatalog(api, mirror);
    mirror.catalog.setSelected(
      spaces.map((s) => s.id),
      true,
    );
    const review = new ReviewService(mirror);

    const fakeMs = (): number => fake.stats.validationMs + fake.stats.handlerMs;
    fake.resetLog();
    let fakeBefore = fakeMs();
    const first = await review.refresh(api);
    const firstRequests = fake.requests.length;
    const firstFakeMs = fakeMs() - fakeBefore;
    // A space with no comment open has its own (resolved) comments listed by the sweep, two spaces a
    // refresh: the refreshes that go round every space once, before the idle one.
    fake.resetLog();
    let sweptComments = first.comments;
    for (let i = 0; i < Math.ceil(SPACES / 2); i++) sweptComments = (await review.refresh(api)).comments;
    const sweepRequests = fake.requests.length;
    fake.resetLog();
    fakeBefore = fakeMs();
    const idle = await review.refresh(api);
    const idleRequests = fake.requests.length;
    const idleFakeMs = fakeMs() - fakeBefore;

    const unresolved = review.unresolvedComments();
    const all = timeQuery(() => review.unresolvedComments());
    const bySpace = timeQuery(() => review.unresolvedComments({ spaceId: spaces[0]!.id }));
    const byAuthor = timeQuery(() => review.unresolvedComments({ authorId: users[0]!.id }));
    const byChangeRequest = timeQuery(() => review.unresolvedComments({ changeRequestId: changeRequests[0]!.id }));

    return {
      data: `${SPACES} spaces, ${first.changeRequests} change requests, ${sweptComments} comments, ${idle.replies} replies`,
      'first mirror: requests': firstRequests,
      'first mirror: comments (the rest, resolved on spaces with none open, through the sweep)': `${first.comments} of ${sweptComments}, the ${Math.ceil(SPACES / 2)} refreshes of the sweep ${sweepRequests} requests`,
      'first mirror: ms': `${first.ms} (of which the fake's validation and handling: ${Math.round(firstFakeMs)})`,
      'idle refresh: requests': `${idleRequests} (${(idleRequests / SPACES).toFixed(1)} per space, target: constant)`,
      'idle refresh: ms': `${idle.ms} (fake: ${Math.round(idleFakeMs)})`,
      'unresolved comments (all spaces): rows': unresolved.length,
      'unresolved comments (all spaces): median ms': `${all.median} (fastest ${all.min}; target < 20)`,
      'unresolved by space: median ms': bySpace.median,
      'unresolved by author: median ms': byAuthor.median,
      'unresolved by change request: median ms': byChangeRequest.median,
    };
  } finally {
    mirror.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
