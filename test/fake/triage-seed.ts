/**
 * Change requests and a thread for each group of the inbox (core/review/triage.ts), as the
 * signed-in user (Casey) sees them, in two organizations: Acme's Guide holds one change request
 * per group of change requests — Alex's, whose review Casey is asked for; Casey's own with
 * changes requested, approved (ready to merge under Acme's rule) and waiting (blocked: no
 * approval, Sam asked) — and a comment that mentions Casey; Beta's Handbook holds Sam's change
 * request, whose review Casey is asked for too. Both spaces have a change request #1.
 */
import type { FakeStore } from './store';
import type { SpaceRec, UserRec } from './model';

export interface TriageSeed {
  guide: SpaceRec;
  handbook: SpaceRec;
  alex: UserRec;
  sam: UserRec;
}

export function seedTriage(store: FakeStore): TriageSeed {
  const me = store.currentUser.id;
  const alex = store.addUser({ displayName: 'Alex Rivera', email: 'alex@example.com' });
  const sam = store.addUser({ displayName: 'Sam Okafor', email: 'sam@example.com' });
  const acme = store.addOrg({ title: 'Acme', members: [me, alex.id, sam.id] });
  const guide = store.addSpace(acme.id, { title: 'Guide', pages: [{ title: 'Welcome', markdown: 'Hello.\n' }] });
  store.review.setMergeRules({ org: acme.id }, { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] });
  const welcome = store.pageByTitle(guide.id, 'Welcome').id;
  const edit = (cr: { id: string }, text: string) => store.editPage(guide.id, welcome, { markdown: text }, { changeRequest: cr.id });

  const theirs = store.addChangeRequest(guide.id, { subject: 'Alex’s rewrite', createdBy: alex.id });
  edit(theirs, 'Hello from Alex.\n');
  store.review.request(guide.id, theirs.id, [me], alex.id);
  const asked = store.addChangeRequest(guide.id, { subject: 'Mine, changes asked' });
  edit(asked, 'Hello, mine.\n');
  store.review.submit(guide.id, asked.id, { status: 'changes-requested', by: alex.id, comment: 'Not yet.' });
  const ready = store.addChangeRequest(guide.id, { subject: 'Mine, approved' });
  edit(ready, 'Hello, approved.\n');
  store.review.submit(guide.id, ready.id, { status: 'approved', by: sam.id });
  const waiting = store.addChangeRequest(guide.id, { subject: 'Mine, waiting' });
  edit(waiting, 'Hello, waiting.\n');
  store.review.request(guide.id, waiting.id, [sam.id]);
  store.addComment(guide.id, { body: 'Could @Casey Quire look at this?', page: welcome, by: alex.id });

  const beta = store.addOrg({ title: 'Beta', members: [me, sam.id] });
  const handbook = store.addSpace(beta.id, { title: 'Handbook', pages: [{ title: 'Start', markdown: 'Start here.\n' }] });
  const elsewhere = store.addChangeRequest(handbook.id, { subject: 'Sam’s handbook fix', createdBy: sam.id });
  store.editPage(handbook.id, store.pageByTitle(handbook.id, 'Start').id, { markdown: 'Start here, now.\n' }, { changeRequest: elsewhere.id });
  store.review.request(handbook.id, elsewhere.id, [me], sam.id);
  return { guide, handbook, alex, sam };
}
