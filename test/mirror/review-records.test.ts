/**
 * The review mirror's two stores by the names that say what they hold: `reviewRecords` writes a
 * change request as the server sent it, `reviewViews` reads it as the views show it — and who
 * made it keeps the API's name, `createdBy`, from the API to the view, across a restart.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { Mirror } from '../../src/main/core/mirror';
import { changeRequestSummary } from '../../src/main/core/review';

const SPACE = 'space-1';

let mirror: Mirror;
afterEach(() => mirror?.close());

it('a change request written as a record reads back as a view with its maker as createdBy, after a restart too', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quire-review-records-'));
  mirror = Mirror.open(dir);
  mirror.transaction(() =>
    mirror.reviewRecords.putChangeRequest(SPACE, {
      id: 'cr-1',
      number: 7,
      status: 'open',
      subject: 'Rewrite the install page',
      createdBy: { id: 'u-casey', displayName: 'Casey Quire', email: 'casey@example.com' },
      space: SPACE,
    }),
  );
  mirror.transaction(() => mirror.reviewRecords.putChangeRequest(SPACE, { id: 'cr-2', number: 8, status: 'draft', subject: 'No maker known', space: SPACE }));
  mirror.close();
  mirror = Mirror.open(dir);

  const view = mirror.reviewViews.changeRequest('cr-1');
  expect(view?.createdBy).toEqual({ id: 'u-casey', displayName: 'Casey Quire' });
  expect(view && changeRequestSummary(view)).toMatchObject({ id: 'cr-1', number: 7, subject: 'Rewrite the install page' });
  expect(mirror.reviewViews.changeRequests({ spaceId: SPACE }).map((cr) => [cr.id, cr.createdBy?.id ?? null])).toEqual(
    expect.arrayContaining([
      ['cr-1', 'u-casey'],
      ['cr-2', null],
    ]),
  );
  expect(mirror.reviewRecords.serverChangeRequest('cr-1')?.createdBy?.displayName).toBe('Casey Quire');
});
