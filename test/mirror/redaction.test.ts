/**
 * The token is never echoed (issue 9, item 4), at the mirror's boundary: whatever message a
 * store is handed — a server's refusal, an error, a log line — is stored with the tokens this
 * process knows and any `Bearer …` credential redacted.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Mirror } from '../../src/main/core/mirror';
import { rememberSecret } from '../../src/main/core/secrets';

const TOKEN = 'gb_api_mirror_secret_987654321';
const LEAK = `GET /x: 500 echo Bearer ${TOKEN} (and bearer other-credential-123 and ${TOKEN} alone)`;

let mirror: Mirror;
beforeEach(() => {
  rememberSecret(TOKEN);
  mirror = Mirror.open(mkdtempSync(join(tmpdir(), 'quire-redact-')));
  mirror.catalog.upsertOrganization({ id: 'org', title: 'Acme' }, {}, '2024-01-01T00:00:00Z');
  mirror.catalog.upsertSpace({ id: 'space', organization: 'org', title: 'Guide', revision: 'r1' }, {});
});
afterEach(() => mirror.close());

function expectClean(text: string | null | undefined) {
  expect(text).toBeTruthy();
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain('other-credential-123');
  expect(text).toContain('[redacted]');
}

it('the sync log stores messages without tokens', () => {
  mirror.log.add('error', LEAK, 'space');
  expectClean(mirror.log.recent(1)[0]!.message);
});

it('the page-by-page activity of a log entry is stored without tokens', () => {
  const activity = {
    direction: 'pull' as const,
    pages: [{ pageId: 'p1', title: LEAK, path: 'a.md', change: 'changed' as const }],
    morePages: 0,
    files: [],
    moreFiles: 0,
    relinked: 0,
  };
  mirror.log.add('pulled', 'Pulled 1 page from main', 'space', undefined, activity);
  expectClean(mirror.log.recent(1)[0]!.activity!.pages[0]!.title);
});

it('a space’s last error is stored without tokens', () => {
  mirror.catalog.markError('space', LEAK);
  expectClean(mirror.catalog.space('space')!.lastError);
});

it('a change the server refused is stored without tokens', () => {
  mirror.outbox.recordRefused('space', { pageKey: 'p1', path: 'a.md', textHash: 'h', message: LEAK, at: '2024-01-01T00:00:00Z' });
  expectClean(mirror.outbox.refused('space').get('p1')!.message);
});

it('a review action’s failure is stored without tokens', () => {
  const action = mirror.reviewActions.insertAction({
    id: 'a1',
    kind: 'resolve',
    spaceId: 'space',
    changeRequestId: null,
    commentId: 'c1',
    replyId: null,
    payload: {},
    state: 'queued',
    createdAt: '2024-01-01T00:00:00Z',
    sendingAt: null,
    finishedAt: null,
    attempts: 0,
    message: LEAK,
    resultId: null,
  });
  expectClean(mirror.reviewActions.action(action.id)!.message);
  mirror.reviewActions.noteFailure(action.id, LEAK, true);
  expectClean(mirror.reviewActions.action(action.id)!.message);
  mirror.reviewActions.setActionState(action.id, 'refused', { message: LEAK });
  expectClean(mirror.reviewActions.action(action.id)!.message);
});
