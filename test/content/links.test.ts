import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanBlocks } from '../../src/main/core/content/blocks';
import { type LinkTargets, toLocalLinks, toStableLinks } from '../../src/main/core/content/links';
import {
  decodePercent,
  findReferences,
  parseStableRef,
  type Reference,
  relativeHref,
  resolveRelativeHref,
  rewriteReferences,
} from '../../src/main/core/content/references';
import { announce, HOSTILE_DOC, INERT, RUNS, SEED, type Syntax, SYNTAX, writeRef } from './gen';

interface Entry {
  kind: 'page' | 'file';
  spaceId: string;
  id: string;
  path: string;
}

/** LinkTargets over a list of files: what a caller backed by the mirror would give. */
function targets(entries: readonly Entry[], spaceId: string, file: string): LinkTargets {
  const byId = new Map(entries.map((e) => [`${e.kind}:${e.spaceId}:${e.id}`, e.path]));
  const byPath = new Map(entries.map((e) => [e.path, e]));
  return {
    spaceId,
    file,
    pageFile: (s, p) => byId.get(`page:${s}:${p}`) ?? null,
    assetFile: (s, f) => byId.get(`file:${s}:${f}`) ?? null,
    lookup: (path) => {
      const e = byPath.get(path);
      return e ? { kind: e.kind, spaceId: e.spaceId, id: e.id } : null;
    },
  };
}

const ENTRIES: Entry[] = [
  { kind: 'page', spaceId: 's1', id: 'intro', path: 'docs/README.md' },
  { kind: 'page', spaceId: 's1', id: 'setup', path: 'docs/guides/setup.md' },
  { kind: 'page', spaceId: 's1', id: 'here', path: 'docs/guides/here.md' },
  { kind: 'page', spaceId: 's1', id: 'guides', path: 'docs/guides/README.md' },
  { kind: 'page', spaceId: 's1', id: 'odd', path: 'docs/Café (v2) #1.md' },
  { kind: 'file', spaceId: 's1', id: 'logo', path: 'docs/.gitbook/assets/logo (1).png' },
  { kind: 'page', spaceId: 's2', id: 'other', path: 'other space/intro.md' },
  { kind: 'file', spaceId: 's2', id: 'pdf', path: 'other space/.gitbook/assets/a.pdf' },
];
const T = targets(ENTRIES, 's1', 'docs/guides/here.md');

describe('toLocalLinks', () => {
  it('writes stable references as relative paths to the local files, in every syntax', () => {
    const stable = [
      'See [setup](/pages/setup#install "mention") and [home](/pages/intro).',
      '![logo](/files/logo) <img src="/files/logo" alt="">',
      '<a href="/spaces/s2/pages/other">Other</a> and {% file src="/spaces/s2/files/pdf" %}',
      '{% content-ref url="/pages/odd" %}',
      '[Café](/pages/odd)',
      '{% endcontent-ref %}',
      '[def]: /pages/guides',
    ].join('\n');
    const { text, written } = toLocalLinks(stable, T);
    expect(text).toBe(
      [
        'See [setup](setup.md#install "mention") and [home](../).',
        '![logo](../.gitbook/assets/logo%20(1).png) <img src="../.gitbook/assets/logo%20(1).png" alt="">',
        '<a href="../../other%20space/intro.md">Other</a> and {% file src="../../other%20space/.gitbook/assets/a.pdf" %}',
        '{% content-ref url="../Café%20(v2)%20%231.md" %}',
        '[Café](../Café%20(v2)%20%231.md)',
        '{% endcontent-ref %}',
        '[def]: ./',
      ].join('\n'),
    );
    // A page with children (or the first page) by its folder, as GitBook writes it.
    expect(written).toEqual({
      'setup.md#install': '/pages/setup#install',
      '../': '/pages/intro',
      '../.gitbook/assets/logo%20(1).png': '/files/logo',
      '../../other%20space/intro.md': '/spaces/s2/pages/other',
      '../../other%20space/.gitbook/assets/a.pdf': '/spaces/s2/files/pdf',
      '../Café%20(v2)%20%231.md': '/pages/odd',
      './': '/pages/guides',
    });
    expect(toStableLinks(text, T, written)).toBe(stable);
  });

  it('keeps what it cannot map in stable form: spaces not synced, pages and files not mirrored', () => {
    const stable = '[a](/spaces/s9/pages/p) [b](/pages/gone) ![c](/files/gone) [d](/spaces/s2/pages/gone) [e](https://x.com)';
    expect(toLocalLinks(stable, T)).toEqual({ text: stable, written: {} });
  });

  it('gives both stable forms of one page their own local href, so push restores each', () => {
    const stable = '[a](/pages/setup) [b](/spaces/s1/pages/setup) [c](/pages/setup)';
    const { text, written } = toLocalLinks(stable, T);
    expect(text).toBe('[a](setup.md) [b](./setup.md) [c](setup.md)');
    expect(toStableLinks(text, T, written)).toBe(stable);
  });

  it('keeps a relative link the server stores as it is, and steers clear of its text', () => {
    const stable = '[kept](setup.md) [mapped](/pages/setup) [missing](nowhere.md)';
    const { text, written } = toLocalLinks(stable, T);
    expect(text).toBe('[kept](setup.md) [mapped](./setup.md) [missing](nowhere.md)');
    expect(toStableLinks(text, T, written)).toBe(stable);
  });

  it('converts the links of list items right after an indented figure, both ways (CommonMark ends the figure’s HTML block with its item)', () => {
    const stable = [
      '*   Save a row.',
      '',
      '    <figure><img src="/files/logo" alt=""><figcaption></figcaption></figure>',
      '*   Then read [setup](/pages/setup#install) and [home](/pages/intro).',
    ].join('\n');
    const { text, written } = toLocalLinks(stable, T);
    expect(text).toBe(
      [
        '*   Save a row.',
        '',
        '    <figure><img src="../.gitbook/assets/logo%20(1).png" alt=""><figcaption></figcaption></figure>',
        '*   Then read [setup](setup.md#install) and [home](../).',
      ].join('\n'),
    );
    expect(toStableLinks(text, T, written)).toBe(stable);
    // A link the writer types there goes to the server as a stable reference.
    expect(toStableLinks(`${text}\n*   And [guides](./)`, T, written)).toBe(`${stable}\n*   And [guides](/pages/guides)`);
  });

  it('keeps an anchor as GitBook wrote it, `\\_` and `#` included, both ways', () => {
    // GitBook's export escapes `_` in an anchor and leaves a second `#` as it is.
    const stable = '[DAG](/pages/setup#accept-both-dag\\_cbor-0x71) [actors](/pages/guides#call-built-in-actors/#using-filecoinsolidity)';
    const { text, written } = toLocalLinks(stable, T);
    expect(text).toBe('[DAG](setup.md#accept-both-dag\\_cbor-0x71) [actors](./#call-built-in-actors/#using-filecoinsolidity)');
    expect(toStableLinks(text, T, written)).toBe(stable);
    // Typed by the writer, the same anchors go to the server as written.
    expect(toStableLinks('[a](setup.md#use-dag\\_cbor) [b](./#x/#y) [c](README.md#caf%C3%A9)', T)).toBe(
      '[a](/pages/setup#use-dag\\_cbor) [b](/pages/guides#x/#y) [c](/pages/guides#caf%C3%A9)',
    );
  });

  it('leaves references written an unusual way, and references in code', () => {
    const stable = '<a href="&#x2F;pages/setup">x</a> [y](\\/pages/setup) `[z](/pages/setup)`\n\n```\n![w](/files/logo)\n```';
    expect(toLocalLinks(stable, T).text).toBe(stable);
  });
});

describe('toStableLinks', () => {
  it("turns a writer's new links to local pages and files into stable references", () => {
    const local = [
      '[a](setup.md#install) [b](./setup.md) [c](../README.md) [d](./) [e](../guides/)',
      '![f](<../.gitbook/assets/logo (1).png>) <img src=../.gitbook/assets/logo%20(1).png>',
      '[g](../../other%20space/intro.md#top) {% embed url="../../other space/.gitbook/assets/a.pdf" %}',
      '[h](..\\Cafe\u0301%20(v2)%20%231.md)',
    ].join('\n');
    expect(toStableLinks(local, T)).toBe(
      [
        '[a](/pages/setup#install) [b](/pages/setup) [c](/pages/intro) [d](/pages/guides) [e](/pages/guides)',
        '![f](</files/logo>) <img src=/files/logo>',
        '[g](/spaces/s2/pages/other#top) {% embed url="/spaces/s2/files/pdf" %}',
        '[h](/pages/odd)',
      ].join('\n'),
    );
  });

  it('sends as written what resolves to nothing Quire knows, and what is not a relative path', () => {
    const local =
      '[a](missing.md) [b](https://x.com/a.md) [c](#anchor) [d](/pages/setup) [e](mailto:a@b.c) [f](../../../../x.md) ![g](../.gitbook/assets/logo%20(1).png#frag)';
    expect(toStableLinks(local, T)).toBe(local);
  });

  it('restores exactly what was written even after the target moved on disk', () => {
    const stable = '[a](/pages/setup#install) ![b](/files/logo)';
    const { text, written } = toLocalLinks(stable, T);
    const moved = targets(
      ENTRIES.map((e) => (e.id === 'setup' ? { ...e, path: 'docs/setup-moved.md' } : e)),
      's1',
      'docs/guides/here.md',
    );
    expect(toStableLinks(text, moved, written)).toBe(stable);
    // Pulled again with the move, the link follows the file.
    expect(toLocalLinks(stable, moved).text).toBe('[a](../setup-moved.md#install) ![b](../.gitbook/assets/logo%20(1).png)');
  });
});

/** A page as GitBook serves it with `format.markdown.refs=stable`: every block, figures, cards, footnotes. */
const GITBOOK_PAGE = `---
description: Install Quire and sync your first space.
---

# Getting started

{% hint style="info" %}
You need an account first: see [Accounts](/pages/accounts#sign-up "mention").
{% endhint %}

<figure><img src="/files/shot" alt="The Quire window"><figcaption><p>After the first sync</p></figcaption></figure>

<picture><source srcset="/files/logo-dark" media="(prefers-color-scheme: dark)"><img src="/files/logo-light" alt=""></picture>

{% stepper %}
{% step %}
### Install

{% tabs %}
{% tab title="macOS" %}
\`\`\`bash
brew install quire # [not a link](/pages/accounts)
\`\`\`
{% endtab %}

{% tab title="Windows" %}
{% code title="install.ps1" overflow="wrap" %}
\`\`\`powershell
winget install quire
\`\`\`
{% endcode %}
{% endtab %}
{% endtabs %}
{% endstep %}

{% step %}
### Sync

Run \`quire sync\`, then read [the folder guide](/spaces/s2/pages/other) and [an unsynced page](/spaces/s9/pages/x).
{% endstep %}
{% endstepper %}

<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><strong>Setup</strong></td><td><a href="/pages/setup">Setup</a></td><td><a href="/files/logo">logo.png</a></td></tr></tbody></table>

| Page | Link |
| ---- | ---- |
| Setup | [setup](/pages/setup#install) |

{% content-ref url="/pages/setup" %}
[Setup](/pages/setup)
{% endcontent-ref %}

{% embed url="https://www.youtube.com/watch?v=abc" %}

{% file src="/spaces/s2/files/pdf" %}
The reference card.
{% endfile %}

<details>

<summary>Troubleshooting</summary>

See the [home page](/pages/intro) or <a href="/pages/accounts" class="button primary">Accounts</a>.

</details>

$$E = mc^2$$

Footnotes work too.[^1]

[^1]: Read [Setup](/pages/setup) first.

<!-- An editor's note: [old link](/pages/setup) -->
`;

describe('a GitBook page', () => {
  it('reads with no block problem, and pulls and pushes back byte for byte', () => {
    const page = targets([...ENTRIES, { kind: 'file', spaceId: 's1', id: 'shot', path: 'docs/.gitbook/assets/shot.png' }], 's1', 'docs/guides/here.md');
    expect(scanBlocks(GITBOOK_PAGE).problems).toEqual([]);
    const { text, written } = toLocalLinks(GITBOOK_PAGE, page);
    expect(findReferences(text).map((r) => r.href)).toEqual([
      '/pages/accounts#sign-up',
      '../.gitbook/assets/shot.png',
      '/files/logo-dark',
      '/files/logo-light',
      '../../other%20space/intro.md',
      '/spaces/s9/pages/x',
      'setup.md',
      '../.gitbook/assets/logo%20(1).png',
      'setup.md#install',
      'setup.md',
      'setup.md',
      'https://www.youtube.com/watch?v=abc',
      '../../other%20space/.gitbook/assets/a.pdf',
      '../',
      '/pages/accounts',
      'setup.md',
    ]);
    expect(toStableLinks(text, page, written)).toBe(GITBOOK_PAGE);
  });
});

// ---------------------------------------------------------------------------
// Properties over random spaces with hostile file names

const SEGMENT = fc
  .string({
    unit: fc.constantFrom('a', 'b', 'Z', '0', ' ', '#', '%', '(', ')', "'", '[', ']', '&', ';', '=', 'é', 'e\u0301', '日', '-', '_', '.'),
    minLength: 1,
    maxLength: 6,
  })
  .map((s) => s.normalize('NFC'))
  .filter((s) => s !== '.' && s !== '..');

const REL_PATH = fc.array(SEGMENT, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));

/** Three synced spaces (s0 holds the page being converted) with pages and assets at hostile paths; s9 is not synced. */
const MODEL = fc
  .tuple(fc.array(fc.tuple(SEGMENT, fc.array(REL_PATH, { minLength: 1, maxLength: 5 }), fc.array(SEGMENT, { maxLength: 3 })), { minLength: 3, maxLength: 3 }))
  .map(([spaces]) => {
    const entries: Entry[] = [];
    const seen = new Set<string>();
    spaces.forEach(([folder, pages, assets], s) => {
      const root = `${folder}-${s}`;
      const add = (kind: Entry['kind'], id: string, path: string) => {
        if (seen.has(path)) return;
        seen.add(path);
        entries.push({ kind, spaceId: `s${s}`, id, path });
      };
      pages.forEach((p, k) => {
        add('page', `p${k}`, `${root}/${p}.md`);
      });
      assets.forEach((a, k) => {
        add('file', `f${k}`, `${root}/.gitbook/assets/${a}.png`);
      });
    });
    return entries;
  });

type Target =
  | 'page'
  | 'page-own-space'
  | 'page-other-space'
  | 'page-unsynced'
  | 'page-unknown'
  | 'file'
  | 'file-other-space'
  | 'file-unknown'
  | 'relative'
  | 'relative-missing'
  | 'external'
  | 'odd-spelling';

interface LinkSpec {
  target: Target;
  pick: number;
  anchor: string | null;
  syntax: Syntax;
}

const LINK_SPEC: fc.Arbitrary<LinkSpec> = fc.record({
  target: fc.constantFrom<Target>(
    'page',
    'page-own-space',
    'page-other-space',
    'page-unsynced',
    'page-unknown',
    'file',
    'file-other-space',
    'file-unknown',
    'relative',
    'relative-missing',
    'external',
    'odd-spelling',
  ),
  pick: fc.nat(),
  anchor: fc.option(fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{0,10}$/), fc.constant('a%20b'))),
  syntax: SYNTAX,
});

const PARAGRAPH = fc.oneof(
  { weight: 6, arbitrary: fc.array(LINK_SPEC, { minLength: 1, maxLength: 3 }) },
  { weight: 2, arbitrary: INERT },
  { weight: 1, arbitrary: HOSTILE_DOC },
);

function hrefFor(spec: LinkSpec, entries: readonly Entry[], t: LinkTargets): string {
  const among = (pred: (e: Entry) => boolean) => {
    const list = entries.filter(pred);
    return list.length > 0 ? list[spec.pick % list.length]! : null;
  };
  const anchor = spec.anchor === null ? '' : `#${spec.anchor}`;
  const page = (e: Entry | null, prefix: string) => (e ? `${prefix}/pages/${e.id}${anchor}` : '/pages/none');
  switch (spec.target) {
    case 'page':
      return page(
        among((e) => e.kind === 'page' && e.spaceId === 's0'),
        '',
      );
    case 'page-own-space':
      return page(
        among((e) => e.kind === 'page' && e.spaceId === 's0'),
        '/spaces/s0',
      );
    case 'page-other-space': {
      const e = among((x) => x.kind === 'page' && x.spaceId !== 's0');
      return page(e, `/spaces/${e?.spaceId}`);
    }
    case 'page-unsynced':
      return `/spaces/s9/pages/p0${anchor}`;
    case 'page-unknown':
      return `/pages/nope${spec.pick}${anchor}`;
    case 'file':
      return `/files/${among((e) => e.kind === 'file' && e.spaceId === 's0')?.id ?? 'none'}`;
    case 'file-other-space': {
      const e = among((x) => x.kind === 'file' && x.spaceId !== 's0');
      return e ? `/spaces/${e.spaceId}/files/${e.id}` : '/files/none';
    }
    case 'file-unknown':
      return `/spaces/s1/files/nope${spec.pick}`;
    case 'relative': {
      const e = among(() => true);
      return e ? relativeHref(t.file, e.path, spec.anchor) : 'x.md';
    }
    case 'relative-missing':
      return `missing-${spec.pick}.md${anchor}`;
    case 'external':
      return `https://example.com/${spec.pick}`;
    case 'odd-spelling':
      return page(
        among((e) => e.kind === 'page'),
        '',
      ).replace('/pages/', '/pages\\/');
  }
}

function renderDoc(paragraphs: readonly (LinkSpec[] | string)[], entries: readonly Entry[], t: LinkTargets): string {
  return paragraphs
    .map((p) => {
      if (typeof p === 'string') return p;
      return p
        .map((spec) => {
          const href = hrefFor(spec, entries, t);
          const syntax = spec.syntax === 'html=' && href.includes('=') ? 'link' : spec.syntax;
          return writeRef(syntax, href, 'T').text;
        })
        .join(' ');
    })
    .join('\n\n');
}

/** Every page and file moved or renamed, some of them into other folders. */
function moveAll(entries: readonly Entry[], how: number): Entry[] {
  return entries.map((e, k) => {
    const cut = e.path.indexOf('/');
    const root = e.path.slice(0, cut);
    const rest = e.path.slice(cut + 1);
    const moved = (how + k) % 3 === 0 ? `moved ${k}/${rest}` : `${rest.replace(/(\.md|\.png)$/, '')}-renamed-${k}${e.kind === 'page' ? '.md' : '.png'}`;
    return { ...e, path: `${root}/${moved}` };
  });
}

function gaps(md: string, refs: readonly Reference[]): string[] {
  const out: string[] = [];
  let last = 0;
  for (const r of refs) {
    out.push(md.slice(last, r.start));
    last = r.end;
  }
  out.push(md.slice(last));
  return out;
}

describe('links: properties', () => {
  it(`push restores the server text exactly, before and after pages move; only hrefs change; every local link resolves (seed ${SEED})`, () => {
    announce('links round trip');
    let rewritten = 0;
    fc.assert(
      fc.property(MODEL, fc.array(PARAGRAPH, { maxLength: 8 }), fc.nat(), fc.nat(), (entries, paragraphs, current, how) => {
        const pages = entries.filter((e) => e.kind === 'page' && e.spaceId === 's0');
        fc.pre(pages.length > 0);
        const self = pages[current % pages.length]!;
        const t1 = targets(entries, 's0', self.path);
        const stable = renderDoc(paragraphs, entries, t1);

        const { text, written } = toLocalLinks(stable, t1);
        expect(toStableLinks(text, t1, written)).toBe(stable);
        if (text !== stable) rewritten++;

        const movedEntries = moveAll(entries, how);
        const t2 = targets(movedEntries, 's0', movedEntries.find((e) => e.id === self.id && e.spaceId === 's0')!.path);
        expect(toStableLinks(text, t2, written)).toBe(stable);
        const again = toLocalLinks(stable, t2);
        expect(toStableLinks(again.text, t2, again.written)).toBe(stable);

        const before = findReferences(stable);
        const after = findReferences(text);
        expect(after.map((r) => [r.kind, r.name, r.attribute, r.line])).toEqual(before.map((r) => [r.kind, r.name, r.attribute, r.line]));
        expect(gaps(text, after)).toEqual(gaps(stable, before));

        after.forEach((ref, k) => {
          if (ref.href === before[k]!.href) return;
          const stableRef = parseStableRef(before[k]!.href)!;
          const spaceId = stableRef.spaceId ?? 's0';
          const file = stableRef.kind === 'page' ? t1.pageFile(spaceId, stableRef.pageId) : t1.assetFile(spaceId, stableRef.fileId);
          const anchor = stableRef.kind === 'page' && stableRef.anchor !== null ? decodePercent(stableRef.anchor) : null;
          expect(resolveRelativeHref(t1.file, ref.href)).toEqual({ path: file, anchor });
        });

        // Pulling what is already local changes nothing.
        expect(toLocalLinks(text, t1).text).toBe(text);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // The documents do hold links Quire maps (the property is not met by leaving everything alone).
    expect(rewritten).toBeGreaterThan(RUNS / 2);
  });

  it(`a writer's relative links to known files become their stable references, once and for all (seed ${SEED})`, () => {
    let converted = 0;
    fc.assert(
      fc.property(
        MODEL,
        fc.array(fc.tuple(fc.nat(), fc.option(fc.stringMatching(/^[A-Za-z0-9 _-]{0,8}$/)), fc.boolean()), { maxLength: 6 }),
        fc.nat(),
        (entries, links, current) => {
          const pages = entries.filter((e) => e.kind === 'page' && e.spaceId === 's0');
          fc.pre(pages.length > 0);
          const t = targets(entries, 's0', pages[current % pages.length]!.path);
          const chosen = links.map(([pick, anchor, dotSlash]) => ({ entry: entries[pick % entries.length]!, anchor, dotSlash }));
          const written = chosen.map(({ entry, anchor, dotSlash }) => `${dotSlash ? './' : ''}${relativeHref(t.file, entry.path, anchor)}`);
          let k = 0;
          // Written the way an editor would: through rewriteReferences, which escapes what markdown needs.
          const local = rewriteReferences(chosen.map(() => '[x](x)').join('\n'), () => written[k++]!);
          expect(findReferences(local).map((r) => r.href)).toEqual(written);
          const pushed = toStableLinks(local, t);
          const expected = chosen.map(({ entry, anchor }) => {
            const space = entry.spaceId === 's0' ? '' : `/spaces/${entry.spaceId}`;
            if (entry.kind === 'file') return anchor === null ? `${space}/files/${entry.id}` : relativeHref(t.file, entry.path, anchor);
            return `${space}/pages/${entry.id}${anchor === null ? '' : `#${anchor.replace(/ /g, '%20')}`}`;
          });
          expect(findReferences(pushed).map((r) => r.href)).toEqual(
            expected.map((href, k) => (chosen[k]!.dotSlash && href.startsWith('/') === false ? `./${href}` : href)),
          );
          expect(toStableLinks(pushed, t)).toBe(pushed);
          if (pushed !== local) converted++;
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(converted).toBeGreaterThan(RUNS / 2);
  });
});
