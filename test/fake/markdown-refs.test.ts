/**
 * GitBook's reference model in the fake (settings `stableRefs`): what `format.markdown.refs`
 * serves, how writes resolve links to stable references (refs of one batch included), and what
 * the content batch refuses.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedGitBookCorpus, type GitBookCorpus } from './corpus';
import { GITBOOK_MARKDOWN, startFakeApi, type FakeApi } from './index';
import { testClient } from './test-client';

let fake: FakeApi;
let corpus: GitBookCorpus;
let client: ReturnType<typeof testClient>;

beforeEach(async () => {
  fake = await startFakeApi({ markdown: { ...GITBOOK_MARKDOWN, frontmatter: false, titleHeading: false } });
  corpus = seedGitBookCorpus(fake.store, fake.store.addOrg({ title: 'Lumen' }).id);
  client = testClient(fake);
});

afterEach(async () => {
  await fake.close();
});

const docs = () => corpus.docs;
const stored = (key: string, changeRequest?: string) =>
  fake.store.pageMarkdown(docs().spaceId, docs().pages[key] ?? '', changeRequest !== undefined ? { changeRequest } : {});

describe('reads: format.markdown.refs', () => {
  it('stable serves the stored references as they are', async () => {
    for (const key of ['welcome', 'docker', 'configuration', 'alerting']) {
      expect(await client.markdown(docs().spaceId, docs().pages[key] ?? '', { refs: 'stable' })).toBe(stored(key));
    }
  });

  it('relative (the default) renders page references as Git Sync paths from the page read, anchors kept', async () => {
    const docker = await client.markdown(docs().spaceId, docs().pages.docker ?? '');
    expect(docker).toContain('[system requirements](./#system-requirements)'); // its parent, which has children
    expect(docker).toContain('[the quickstart](../quickstart.md)');
    expect(docker).toContain('[default dashboard](../../guides/building-dashboards.md#the-default-dashboard)');
    expect(docker).toContain('[Kubernetes (Helm)](kubernetes-helm/)'); // a sibling with children
    expect(await client.markdown(docs().spaceId, docs().pages.docker ?? '', { refs: 'relative' })).toBe(docker);

    const welcome = await client.markdown(docs().spaceId, docs().pages.welcome ?? '');
    expect(welcome).toContain('<a href="getting-started/installation/">Installation</a>'); // HTML in a cards table
    expect(welcome).toContain('{% content-ref url="getting-started/quickstart.md" %}\n[Quickstart](getting-started/quickstart.md)\n{% endcontent-ref %}');
  });

  it('relative leaves files, other spaces, reusable content, missing pages and code untouched', async () => {
    const welcome = await client.markdown(docs().spaceId, docs().pages.welcome ?? '');
    expect(welcome).toContain(`<img src="/files/${docs().files.logo}"`);
    expect(welcome).toContain(`(/spaces/${corpus.api.spaceId}/pages/${corpus.api.pages.overview})`);
    const alerting = await client.markdown(docs().spaceId, docs().pages.alerting ?? '');
    expect(alerting).toContain(`[Alertmanager compatibility](/pages/${corpus.missing.page})`);
    expect(alerting).toContain(`{% include "/reusable-content/${docs().reusableContents.platforms}" %}`);
    expect(alerting).toContain('[runbook]: troubleshooting-faq.md#escalation'); // a reference definition
    const configuration = await client.markdown(docs().spaceId, docs().pages.configuration ?? '');
    expect(configuration).toContain(`owner: "[Quickstart](/pages/${docs().pages.quickstart})"`); // in a code fence
    expect(configuration).toContain(`\`[not a link](/pages/${docs().pages.quickstart})\``); // in inline code
  });

  it('readmeLinks: readme names README.md for pages with children', async () => {
    fake.markdown.readmeLinks = 'readme';
    const docker = await client.markdown(docs().spaceId, docs().pages.docker ?? '');
    expect(docker).toContain('[system requirements](README.md#system-requirements)');
    expect(docker).toContain('[Kubernetes (Helm)](kubernetes-helm/README.md)');
  });

  it("renders relative to the revision read: a change request's move changes its links, not main's", async () => {
    const cr = fake.store.addChangeRequest(docs().spaceId);
    fake.store.movePage(docs().spaceId, docs().pages.docker ?? '', { parent: null }, { changeRequest: cr.id });
    const moved = await client.markdown(docs().spaceId, docs().pages.docker ?? '', { changeRequest: cr.id });
    expect(moved).toContain('[system requirements](getting-started/installation/#system-requirements)');
    expect(await client.markdown(docs().spaceId, docs().pages.docker ?? '')).toContain('[system requirements](./#system-requirements)');
    expect(stored('docker', cr.id)).toBe(stored('docker'));
  });

  it('with stableRefs off (the default), bodies are served verbatim whatever the refs mode', async () => {
    fake.markdown.stableRefs = false;
    expect(await client.markdown(docs().spaceId, docs().pages.docker ?? '', { refs: 'relative' })).toBe(stored('docker'));
  });
});

describe('writes: references resolved before storing', () => {
  const write = async (markdown: string, pageKey = 'docker') => {
    const cr = fake.store.addChangeRequest(docs().spaceId);
    const answer = await client.batch(docs().spaceId, cr.id, [{ operation: 'update_page', page: docs().pages[pageKey], document: { markdown } }]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return stored(pageKey, cr.id);
  };

  it('resolves relative paths against the page (file, folder, README, ./ and ../ forms), keeping anchors', async () => {
    const p = docs().pages;
    const body = await write(
      [
        '[a](../quickstart.md) [b](./kubernetes-helm/#x) [c](kubernetes-helm/README.md) [d](./) [e](../README.md#y)',
        '[f](../../guides/alerting-rules.md#silencing) [g](../configuration) <a href="../../reference/con.md">h</a>',
        '{% content-ref url="kubernetes-helm/helm-values-reference/" %}',
        '[Helm](kubernetes-helm/helm-values-reference/)',
        '{% endcontent-ref %}',
        '[def]: ../../welcome-to-lumen.md',
      ].join('\n'),
    );
    expect(body).toBe(
      [
        `[a](/pages/${p.quickstart}) [b](/pages/${p.kubernetes}#x) [c](/pages/${p.kubernetes}) [d](/pages/${p.installation}) [e](/pages/${p['getting-started']}#y)`,
        `[f](/pages/${p.alerting}#silencing) [g](/pages/${p.configuration}) <a href="/pages/${p.con}">h</a>`,
        `{% content-ref url="/pages/${p['helm-values']}" %}`,
        `[Helm](/pages/${p['helm-values']})`,
        '{% endcontent-ref %}',
        `[def]: /pages/${p.welcome}`,
        '',
      ].join('\n'),
    );
  });

  it('resolves the /pages/<path> forms of the spec, and /pages/README.md to the root page', async () => {
    const p = docs().pages;
    const body = await write(
      '[a](/pages/getting-started/quickstart) [b](/pages/getting-started/installation/README.md#z) [c](/pages/guides/alerting-rules.md) [d](/pages/README.md)',
    );
    expect(body).toBe(`[a](/pages/${p.quickstart}) [b](/pages/${p.installation}#z) [c](/pages/${p.alerting}) [d](/pages/${p.welcome})\n`);
  });

  it('keeps stable references, external links, anchors, asset paths, code, and links that resolve to nothing', async () => {
    const kept = [
      `[a](/pages/${docs().pages.quickstart}#q) [b](/files/${docs().files.logo}) [c](/spaces/${corpus.api.spaceId}/pages/${corpus.api.pages.errors})`,
      `[d](https://example.com/x.md) [e](#local) [f](mailto:a@example.com) ![g](../.gitbook/assets/logo.png)`,
      `[h](../nowhere.md) [i](/pages/${corpus.missing.page}) [j](../../../../../../escape.md) \`[k](../quickstart.md)\``,
      '',
    ].join('\n');
    expect(await write(kept)).toBe(kept);
  });

  it('unresolvedLinks: text replaces a page link that resolves to nothing by its text', async () => {
    fake.markdown.unresolvedLinks = 'text';
    expect(await write(`[Gone](../nowhere.md) and [gone too](/pages/${corpus.missing.page}), ![kept](../missing.png) [ok](../quickstart.md)`)).toBe(
      `Gone and gone too, ![kept](../missing.png) [ok](/pages/${docs().pages.quickstart})\n`,
    );
  });

  it("a new page's links are relative to where it is inserted", async () => {
    const cr = fake.store.addChangeRequest(docs().spaceId);
    const answer = await client.batch(docs().spaceId, cr.id, [
      { operation: 'insert_page', title: 'Podman', into: docs().pages.installation, document: { markdown: 'Like [Docker](docker.md), see [the parent](./).' } },
    ]);
    expect(answer.status).toBe(200);
    const id = answer.body.changes[0].page.id as string;
    expect(fake.store.pageMarkdown(docs().spaceId, id, { changeRequest: cr.id })).toBe(
      `Like [Docker](/pages/${docs().pages.docker}), see [the parent](/pages/${docs().pages.installation}).\n`,
    );
  });

  it('refs of one batch resolve whatever the order: pages link each other and a file uploaded later', async () => {
    const cr = fake.store.addChangeRequest(docs().spaceId);
    const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
    const answer = await client.batch(docs().spaceId, cr.id, [
      { operation: 'insert_page', ref: 'overview', title: 'Overview', document: { markdown: 'Next: [details](./details.md#intro). ![Diagram](./diagram)' } },
      { operation: 'insert_page', ref: 'details', title: 'Details', into: 'overview', document: { markdown: 'Back to [the overview](./overview.md).' } },
      { operation: 'insert_files', files: [{ ref: 'diagram', name: 'diagram.png', contentType: 'image/png', base64: png }] },
    ]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const [overview, details] = answer.body.changes.map((c: { page: { id: string } }) => c.page.id);
    const fileId = answer.body.insertedFiles[0].id as string;
    expect(fake.store.pageMarkdown(docs().spaceId, overview, { changeRequest: cr.id })).toBe(
      `Next: [details](/pages/${details}#intro). ![Diagram](/files/${fileId})\n`,
    );
    expect(fake.store.pageMarkdown(docs().spaceId, details, { changeRequest: cr.id })).toBe(`Back to [the overview](/pages/${overview}).\n`);
  });

  it('round-trips GitBook’s forms as its export writes them: anchors as stored (`\\_`, a second `#`), links of list items after an indented figure', async () => {
    const [setup, docker] = [docs().pages.quickstart, docs().pages.docker];
    const body = [
      `See [DAG](/pages/${setup}#accept-both-dag\\_cbor-0x71) and [actors](/pages/${setup}#call-built-in-actors/#using-filecoinsolidity).`,
      '',
      '*   Save a row.',
      '',
      `    <figure><img src="/files/${docs().files.logo}" alt=""><figcaption></figcaption></figure>`,
      `*   Then read [the quickstart](/pages/${setup}).`,
      '',
    ].join('\n');
    fake.store.editPage(docs().spaceId, docker ?? '', { markdown: body });
    const relative = await client.markdown(docs().spaceId, docker ?? '');
    expect(relative).toContain('[DAG](../quickstart.md#accept-both-dag\\_cbor-0x71)');
    expect(relative).toContain('[actors](../quickstart.md#call-built-in-actors/#using-filecoinsolidity)');
    expect(relative).toContain('*   Then read [the quickstart](../quickstart.md).');
    expect(await write(relative)).toBe(body);
  });

  it('documentId changes exactly when the stored markdown changes', async () => {
    const before = fake.store.page(docs().spaceId, docs().pages.docker ?? '');
    const relative = await client.markdown(docs().spaceId, before.id);
    const cr = fake.store.addChangeRequest(docs().spaceId);
    await client.batch(docs().spaceId, cr.id, [{ operation: 'update_page', page: before.id, document: { markdown: relative } }]);
    expect(fake.store.page(docs().spaceId, before.id, { changeRequest: cr.id }).documentId).toBe(before.documentId);
    await client.batch(docs().spaceId, cr.id, [{ operation: 'update_page', page: before.id, document: { markdown: `${relative}\nOne more line.` } }]);
    expect(fake.store.page(docs().spaceId, before.id, { changeRequest: cr.id }).documentId).not.toBe(before.documentId);
  });
});

describe('writes the API refuses', () => {
  const refuse = async (changes: unknown[], message: RegExp) => {
    const cr = fake.store.addChangeRequest(docs().spaceId);
    const answer = await client.batch(docs().spaceId, cr.id, changes);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(message);
    expect(answer.body.error.message).toMatch(/Nothing in this batch was applied/);
    expect(fake.store.changeRequest(docs().spaceId, cr.id).revisionId).toBe(cr.revisionInitial);
    expect(fake.violations).toEqual([]); // valid by the spec, refused by the API's rules
  };
  const page = (ref: string) => ({ operation: 'insert_page', ref, title: ref, document: { markdown: 'x' } });
  const file = (extra: Record<string, unknown>) => ({ operation: 'insert_files', files: [{ name: 'a.png', ...extra }] });

  it('a ref used twice in a batch, by pages or by a page and a file', async () => {
    await refuse([page('a'), page('a')], /changes\[1\] \(insert_page\): ref "a" is already used by changes\[0\]/);
    await refuse([page('a'), file({ ref: 'a', contentType: 'image/png', base64: 'AAAA' })], /ref "a" is already used/);
  });

  it('a ref that is the path of an existing page', async () => {
    await refuse([page('getting-started/quickstart')], /ref "getting-started\/quickstart" is the path of an existing page/);
  });

  it('base64 without contentType, or over 1 MB', async () => {
    await refuse([file({ base64: 'AAAA' })], /requires `contentType` with `base64`/);
    const big = Buffer.alloc(1024 * 1024 + 1).toString('base64');
    await refuse([file({ contentType: 'image/png', base64: big })], /limited to 1 MB/);
  });

  it('placing a page under a page the batch inserts later', async () => {
    await refuse(
      [{ operation: 'insert_page', title: 'Child', into: 'parent', document: { markdown: 'x' } }, page('parent')],
      /"parent" is the ref of a page inserted later in this batch/,
    );
  });

  it('a body the spec rejects is refused by validation against the OpenAPI document', async () => {
    const cr = fake.store.addChangeRequest(docs().spaceId);
    const answer = await client.batch(docs().spaceId, cr.id, [{ operation: 'insert_page', ref: 7, document: { markdown: 'x' } }]);
    expect(answer.status).toBe(400);
    expect(fake.takeViolations()).toEqual([expect.stringMatching(/updateChangeRequestContent/)]);
  });
});
