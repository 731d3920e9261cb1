/**
 * The fake's page documents (`format=document`) and comments on a block: every block has a key,
 * keys carry over an edit as GitBook's editor keeps them, a comment's `target.node` names a
 * block of its page at the revision it was made on, and a node that is not there is refused.
 * Every answer is validated against the OpenAPI document (vitest-setup fails on a violation).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from './index';
import { testClient } from './test-client';
import './vitest-setup';

let fake: FakeApi;

beforeEach(async () => {
  fake = await startFakeApi();
});
afterEach(async () => {
  await fake.close();
});

const PAGE = [
  'Intro paragraph.',
  '',
  '## Steps',
  '',
  '1. Install it.',
  '2. Run it.',
  '',
  '```sh',
  'npm i',
  '',
  'npm start',
  '```',
  '',
  '{% hint style="warning" %}',
  'Careful.',
  '{% endhint %}',
  '',
  '> Quoted.',
  '',
  '---',
  '',
  'Last words with a [link](https://example.com).',
  '',
].join('\n');

interface Block {
  type: string;
  key: string;
  nodes?: (Block | { object: 'text'; leaves: { text: string }[] })[];
}
const blocks = (doc: { nodes: Block[] }): Block[] => doc.nodes;
const textOf = (b: Block): string => (b.nodes ?? []).map((n) => ('leaves' in n ? n.leaves.map((l) => l.text).join('') : textOf(n as Block))).join(' ');

describe('page documents', () => {
  it('gives every block a key, in the document’s shape', async () => {
    const org = fake.store.addOrg({ title: 'Acme' });
    const space = fake.store.addSpace(org.id, { title: 'Docs', pages: [{ title: 'Guide', markdown: PAGE }] });
    const page = fake.store.pageByTitle(space.id, 'Guide');
    const got = await testClient(fake).get(`/spaces/${space.id}/content/page/${page.id}?format=document`);
    expect(got.status).toBe(200);
    const top = blocks(got.body.document);
    expect(top.map((b) => b.type)).toEqual(['paragraph', 'heading-2', 'list-ordered', 'code', 'hint', 'blockquote', 'divider', 'paragraph']);
    expect(top[2]!.nodes!.map((n) => (n as Block).type)).toEqual(['list-item', 'list-item']);
    expect(top[3]!.nodes!.map((n) => textOf(n as Block))).toEqual(['npm i', '', 'npm start']);
    expect(textOf(top[7]!)).toBe('Last words with a link.');
    const keys: string[] = [];
    const walk = (list: Block[]) => {
      for (const b of list) {
        keys.push(b.key);
        walk((b.nodes ?? []).filter((n): n is Block => 'key' in n));
      }
    };
    walk(top);
    expect(keys.every((k) => typeof k === 'string' && k.length > 0)).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps the keys of unchanged blocks and of a block edited in place; a new block gets a new key', async () => {
    const org = fake.store.addOrg({ title: 'Acme' });
    const space = fake.store.addSpace(org.id, { title: 'Docs', pages: [{ title: 'Guide', markdown: 'One.\n\nTwo.\n\nThree.\n' }] });
    const page = fake.store.pageByTitle(space.id, 'Guide');
    const before = blocks(fake.store.currentRevision(space.id).pages.get(page.id)!.document!);
    const cr = fake.store.addChangeRequest(space.id, { subject: 'Edit' });
    fake.store.editPage(space.id, page.id, { markdown: 'One.\n\nTwo, better.\n\nNew.\n\nThree.\n' }, { changeRequest: cr.id });
    const got = await testClient(fake).get(`/spaces/${space.id}/change-requests/${cr.id}/content/page/${page.id}?format=document`);
    const after = blocks(got.body.document);
    expect(after.map(textOf)).toEqual(['One.', 'Two, better.', 'New.', 'Three.']);
    expect(after[0]!.key).toBe(before[0]!.key);
    expect(after[1]!.key).toBe(before[1]!.key);
    expect(after[3]!.key).toBe(before[2]!.key);
    expect(before.map((b) => b.key)).not.toContain(after[2]!.key);
  });
});

describe('comments on a block', () => {
  it('posts a comment on a node of a page in a change request, and answers with the node and the revision', async () => {
    const org = fake.store.addOrg({ title: 'Acme' });
    const space = fake.store.addSpace(org.id, { title: 'Docs', pages: [{ title: 'Guide', markdown: 'One.\n\nTwo.\n' }] });
    const page = fake.store.pageByTitle(space.id, 'Guide');
    const cr = fake.store.addChangeRequest(space.id, { subject: 'Edit' });
    fake.store.editPage(space.id, page.id, { markdown: 'One.\n\nTwo, better.\n' }, { changeRequest: cr.id });
    const head = fake.store.revisionOf(space.id, { changeRequest: cr.id });
    const node = blocks(head.pages.get(page.id)!.document!)[1]!.key;
    const base = `/spaces/${space.id}/change-requests/${cr.id}`;
    const posted = await testClient(fake).post(`${base}/comments`, { body: { markdown: 'Better how?' }, page: page.id, node });
    expect(posted.status).toBe(200);
    expect(posted.body.target).toMatchObject({ page: { id: page.id }, node: { id: node }, revision: head.id, changeRequest: cr.id });
    const refused = await testClient(fake).post(`${base}/comments`, { body: { markdown: 'Here?' }, page: page.id, node: 'no-such-block' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/no-such-block/);
  });
});
