/** Ready-made content for the fake: a large deterministic space (benchmark) and a demo org. */
import type { ChangeRequestRec, CollectionRec, OrgRec, SiteRec, SpaceRec, UserRec } from './model';
import type { FakeStore, PageSeed } from './store';
import { mulberry32 } from '../helpers/random';

export interface GenerateSpaceOptions {
  /** Number of pages. Default 2000. */
  pages?: number;
  /** Approximate markdown size of each page. Default 3000. */
  bytesPerPage?: number;
  /** Maximum nesting depth (1 = all pages at the root). Default 4. */
  depth?: number;
  /** PRNG seed: the same seed always yields the same titles, tree and content. Default 1. */
  seed?: number;
  title?: string;
}

/** Builds a large nested space deterministically (same options → same content). */
export function generateSpace(store: FakeStore, orgId: string, options: GenerateSpaceOptions = {}): SpaceRec {
  const count = options.pages ?? 2000;
  const bytesPerPage = options.bytesPerPage ?? 3000;
  const maxDepth = Math.max(1, options.depth ?? 4);
  const random = mulberry32(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

  /** Pages that may still receive children (depth below the maximum), in creation order. */
  const parents: Array<{ seed: PageSeed & { pages: PageSeed[] }; depth: number }> = [];
  const roots: PageSeed[] = [];
  const rootShare = Math.max(1, Math.round(Math.sqrt(count) / 2));
  for (let i = 0; i < count; i++) {
    const title = `${pick(ADJECTIVES)} ${pick(NOUNS)} ${i + 1}`;
    const seed = { title, markdown: generateMarkdown(random, title, bytesPerPage), pages: [] as PageSeed[] };
    const atRoot = i < rootShare || parents.length === 0 || random() < 0.02;
    let depth = 1;
    if (atRoot) {
      roots.push(seed);
    } else {
      // Recent pages are preferred as parents, which yields deep, bushy branches.
      const parent = pick(parents.slice(-64));
      parent.seed.pages.push(seed);
      depth = parent.depth + 1;
    }
    if (depth < maxDepth) parents.push({ seed, depth });
  }
  return store.addSpace(orgId, { title: options.title ?? `Generated ${count}`, pages: roots });
}

function generateMarkdown(random: () => number, title: string, bytes: number): string {
  const pool = sentencePool(random);
  const sentence = (): string => pool[Math.floor(random() * pool.length)] ?? '';
  const word = (): string => WORDS[Math.floor(random() * WORDS.length)] ?? 'lorem';
  const parts: string[] = [`Notes about ${title.toLowerCase()}.`];
  let size = parts[0]?.length ?? 0;
  let section = 1;
  while (size < bytes) {
    const roll = random();
    let block: string;
    if (roll < 0.12) block = `## Section ${section++}: ${word()} ${word()}`;
    else if (roll < 0.22) block = `- ${sentence()}\n- ${sentence()}\n- ${sentence()}`;
    else if (roll < 0.27) block = `\`\`\`js\nconst ${word()} = ${Math.floor(random() * 1000)};\nconsole.log(${JSON.stringify(word())});\n\`\`\``;
    else block = `${sentence()} ${sentence()} ${sentence()}`;
    parts.push(block);
    size += block.length + 2;
  }
  return `${parts.join('\n\n')}\n`;
}

/** Sentences drawn once per PRNG (pages pick from them: varied text, cheap to build). */
const pools = new WeakMap<() => number, string[]>();
function sentencePool(random: () => number): string[] {
  let pool = pools.get(random);
  if (!pool) {
    pool = Array.from({ length: 512 }, () => {
      const words: string[] = Array.from({ length: 6 + Math.floor(random() * 10) }, () => WORDS[Math.floor(random() * WORDS.length)] ?? 'lorem');
      const first = words[0] ?? 'lorem';
      words[0] = first.charAt(0).toUpperCase() + first.slice(1);
      return `${words.join(' ')}.`;
    });
    pools.set(random, pool);
  }
  return pool;
}

const ADJECTIVES = ['Quiet', 'Rapid', 'Hidden', 'Golden', 'Modular', 'Elastic', 'Linear', 'Curious', 'Brisk', 'Layered'] as const;
const NOUNS = ['Widgets', 'Pipelines', 'Gardens', 'Queues', 'Ledgers', 'Bridges', 'Sensors', 'Atlases', 'Engines', 'Harbors'] as const;
const WORDS = [
  'lorem',
  'ipsum',
  'sync',
  'offline',
  'draft',
  'merge',
  'revision',
  'page',
  'space',
  'token',
  'client',
  'server',
  'cache',
  'index',
  'review',
  'comment',
  'branch',
  'conflict',
  'resolve',
  'mirror',
  'local',
  'remote',
  'markdown',
  'heading',
  'paragraph',
  'latency',
  'retry',
  'backoff',
  'window',
  'limit',
  'stream',
  'batch',
  'atomic',
  'version',
] as const;

export interface DemoSeed {
  org: OrgRec;
  collection: CollectionRec;
  handbook: SpaceRec;
  api: SpaceRec;
  users: { alex: UserRec; sam: UserRec };
  changeRequests: { editIntro: ChangeRequestRec; draftFaq: ChangeRequestRec };
  site: SiteRec;
}

/** A pleasant sample organisation for demos and exploratory tests. */
export function seedDemo(store: FakeStore): DemoSeed {
  const alex = store.addUser({ displayName: 'Alex Rivera', email: 'alex@example.com' });
  const sam = store.addUser({ displayName: 'Sam Okafor', email: 'sam@example.com' });
  const org = store.addOrg({ title: 'Quire Demo Co', members: [alex.id, sam.id] });
  const collection = store.addCollection(org.id, { title: 'Product docs', description: 'Everything customers read' });

  const handbook = store.addSpace(org.id, {
    title: 'Handbook',
    emoji: '1f4d8',
    parent: collection.id,
    pages: [
      { title: 'Welcome', markdown: 'Welcome to the **handbook**.\n\nStart with [Getting started](getting-started/README.md).', icon: 'house' },
      {
        title: 'Getting started',
        description: 'Install and configure',
        markdown: 'How to get going.',
        pages: [
          { title: 'Install', markdown: '```sh\nnpm install quire\n```' },
          { title: 'Setup', markdown: 'First setup.' },
          { title: 'Setup', markdown: 'A second page titled Setup: its slug becomes `setup-2`.' },
          { title: 'Configure: advanced & "quoted" options', markdown: '| key | value |\n| --- | --- |\n| a | 1 |' },
        ],
      },
      {
        title: 'Guides',
        type: 'group',
        pages: [
          { title: 'Q&A / FAQ', markdown: 'Questions with slashes/and\\backslashes in the title.' },
          { title: 'Ünïcödé — émojis 🎉', emoji: '1f389', markdown: 'Non-ASCII title.' },
          { title: 'CON', markdown: 'A title that is a reserved file name on Windows.' },
          { title: '..', slug: 'dot-dot', markdown: 'A title made of dots.' },
          { title: 'Status page', type: 'link', href: 'https://status.example.com' },
        ],
      },
      { title: 'Internal notes', hidden: true, markdown: '---\nnot: frontmatter of the API, just text\n---\nHidden page.' },
      { title: 'A very long title that goes on and on to test how clients cope with titles well beyond sixty characters', markdown: 'Long.' },
    ],
  });
  store.addFile(handbook.id, { name: 'diagram.png', contentType: 'image/png', bytes: Buffer.from('89504e470d0a1a0a', 'hex') });

  const api = store.addSpace(org.id, {
    title: 'API Reference',
    emoji: '1f527',
    pages: [
      { title: 'Overview', markdown: 'The API at a glance.' },
      { title: 'Authentication', markdown: 'Send `Authorization: Bearer <token>`.', pages: [{ title: 'Tokens', markdown: 'Create tokens in settings.' }] },
      { title: 'Errors', markdown: 'Errors look like `{ "error": { "code": 404, "message": "…" } }`.' },
    ],
  });

  const welcome = store.pageByTitle(handbook.id, 'Welcome');
  const faq = store.pageByTitle(handbook.id, 'Q&A / FAQ');
  const editIntro = store.addChangeRequest(handbook.id, {
    subject: 'Polish the welcome page',
    createdBy: alex.id,
    changes: [
      { operation: 'update_page', page: welcome.id, document: { markdown: 'Welcome to the **Quire** handbook.\n\nRead this first.' } },
      { operation: 'insert_page', title: 'Changelog', document: { markdown: '- 1.0: first release' } },
    ],
  });
  const draftFaq = store.addChangeRequest(handbook.id, {
    subject: 'More FAQ entries',
    status: 'draft',
    createdBy: sam.id,
    changes: [{ operation: 'update_page', page: faq.id, document: { markdown: 'Questions.\n\n## Can I work offline?\n\nYes.' } }],
  });

  // A reviewer's day: Alex asks you (the token's user) to review; Sam already asked for changes;
  // the handbook merges only with an approving review.
  store.review.request(handbook.id, editIntro.id, [sam.id, store.currentUser.id], alex.id);
  store.review.submit(handbook.id, editIntro.id, { status: 'changes-requested', by: sam.id });
  store.review.setMergeRules({ space: handbook.id }, { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] });

  const question = store.addComment(handbook.id, { body: 'Should we link the install guide here?', page: welcome.id, by: sam.id });
  store.addReply(handbook.id, question.id, { body: 'Yes, added in the polish change request.', by: alex.id });
  store.addReply(handbook.id, question.id, { body: 'Thanks!', by: sam.id });
  store.addComment(handbook.id, { body: 'Typo fixed.', page: faq.id, by: alex.id, resolved: true });
  const review = store.addComment(handbook.id, { body: 'Nice wording 👍', page: welcome.id, changeRequest: editIntro.id, by: sam.id });
  store.addReply(handbook.id, review.id, { body: 'Thank you', changeRequest: editIntro.id, by: alex.id });

  const site = store.addSite(org.id, {
    title: 'Quire Docs',
    basename: 'docs',
    sections: [
      { title: 'Handbook', path: 'handbook', spaces: [{ space: handbook.id }] },
      { title: 'API', path: 'api', icon: 'code', spaces: [{ space: api.id, title: 'API v1' }] },
    ],
    groups: [{ title: 'Developers', sections: ['API'] }],
    shareLinks: [{ name: 'Beta testers' }, { name: 'Old partners', active: false }],
  });

  return { org, collection, handbook, api, users: { alex, sam }, changeRequests: { editIntro, draftFaq }, site };
}
