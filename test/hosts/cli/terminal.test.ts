/**
 * Output is safe for terminals (issue 9, item 8): titles, subjects, comment bodies and author
 * names from the server are printed with control characters and escape sequences shown as
 * `\uXXXX`, never acted on — and a title cannot forge a line of its own.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { quire, tempDir } from '../../helpers/cli';

/** Recolours, sets the window title (OSC), clears the screen, an 8-bit CSI, a right-to-left override, a carriage return. */
const HOSTILE = '\u001b[31mred\u001b]0;owned\u0007\u001b[2J\u009b1m\u202eevil\rX';
/** Any of these reaching the terminal raw would act on it. */
const RAW = /(?![\n\t])[\p{Cc}\p{Bidi_Control}]/u;

let fake: FakeApi;
let dir: string;
beforeEach(async () => {
  fake = await startFakeApi();
  dir = tempDir();
});
afterEach(async () => {
  await fake.close();
});

it('prints server titles, subjects, comment bodies and author names with escapes neutralised', async () => {
  const org = fake.store.addOrg({ title: 'Acme' });
  // Space titles are at most 50 characters.
  const space = fake.store.addSpace(org.id, { title: 'G\u001b]0;x\u0007\u009b2J\u202e\n  conflicts: 0', pages: [{ title: 'Home', markdown: 'hi\n' }] });
  const author = fake.store.addUser({ displayName: `Mallory ${HOSTILE}` });
  const cr = fake.store.addChangeRequest(space.id, { subject: `Subject ${HOSTILE}`, createdBy: author.id });
  fake.store.addComment(space.id, { body: `Look ${HOSTILE}`, by: author.id });
  fake.store.addComment(space.id, { body: `On the CR ${HOSTILE}`, by: author.id, changeRequest: cr.id });
  const env = { QUIRE_TOKEN: fake.token };

  const sync = await quire(['sync', '--api', fake.url, '--dir', dir, '--once'], { env });
  expect(sync.code).toBe(0);
  const status = await quire(['status', '--dir', dir], { env });
  const review = await quire(['review', '--dir', dir], { env });
  const reviewJson = await quire(['review', '--dir', dir, '--json'], { env });

  for (const run of [sync, status, review, reviewJson]) {
    expect(run.stdout + run.stderr).not.toMatch(RAW);
  }
  expect(status.stdout).toContain('G\\u001b]0;x\\u0007\\u009b2J\\u202e\\u000a  conflicts: 0 (');
  expect(status.stdout.split('\n').filter((l) => l.startsWith('  conflicts:'))).toEqual(['  conflicts: 0']);
  expect(review.stdout).toContain('Subject \\u001b[31mred');
  expect(review.stdout).toContain('Mallory \\u001b[31mred');
  expect(review.stdout).toContain('Look \\u001b[31mred');
  // --json stays valid JSON and means the same text.
  const parsed = JSON.parse(reviewJson.stdout) as { changeRequests: { subject: string }[]; comments: { author: string; body: string }[] };
  expect(parsed.changeRequests[0]!.subject).toBe(`Subject ${HOSTILE}`);
  expect(parsed.comments.map((c) => c.author)).toContain(`Mallory ${HOSTILE}`);
});
