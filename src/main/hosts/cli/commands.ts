/**
 * Every `quire` command, declared once: its arguments (what the parser accepts, nothing else),
 * its help, and where its code is. Adding a command is one entry here and one file under
 * commands/; a command with verbs (`quire comment reply …`) declares each verb's arguments.
 * The code is loaded with `import()` when the command runs, so a command pays only for what it
 * uses; the bundle (scripts/build-cli.mjs) splits along these imports.
 */
import type { CommandSpec, FlagSpec, PositionalSpec } from './spec';

const dir: FlagSpec = { value: '<folder>', required: true, help: 'the sync folder' };
const json: FlagSpec = { help: 'print JSON for scripts' };
const api: FlagSpec = { value: '<base_url>', help: 'the API origin, such as https://api.gitbook.com (default: the one this folder last synced with)' };
const port: FlagSpec = { value: '<n>', help: 'the port on 127.0.0.1, from 0 to 65535 (default 0: any free port)' };
const commentId: PositionalSpec = { name: '<commentId>', what: 'the comment’s id (`quire review` lists them)' };
const postId: PositionalSpec = { name: '<commentId or replyId>', what: 'the comment or reply (`quire review` lists them)' };
const crNumber: PositionalSpec = { name: '<n>', what: 'the change request’s number (`quire cr list` lists them)' };
const commentBody: FlagSpec = { value: '<markdown>', required: true, help: 'the text of the comment or reply, in markdown' };
const crSubject: FlagSpec = { value: '<s>', help: 'the subject (one you set is kept: never replaced by the generated one)' };
const spaceOfFolder: FlagSpec = { value: '<spaceId>', help: 'the space (may be left out where the folder syncs one space)' };
const page: PositionalSpec = { name: '<file or page id>', what: 'the page, by its file or its page id (`quire history` lists them)' };

const EXIT_SYNC = 'Exit codes: 0 in sync, 1 error, 2 usage, 3 something needs you (conflicts, held pages, a mass-delete stop), 130 stopped (Ctrl-C).';
const EXIT_PLAIN = 'Exit codes: 0 ok, 1 error, 2 usage, 130 stopped (Ctrl-C).';
const EXIT_SERVER = 'Runs until Ctrl-C (exit 0); exit 1 when it cannot start (the port is taken, the folder cannot be read), 2 usage.';

export const COMMANDS = {
  sync: {
    summary: 'pull what changed on the server, push your edits as a change request (--once: one cycle; otherwise until Ctrl-C)',
    flags: {
      api,
      dir: { ...dir, help: 'the sync folder (created if missing)' },
      space: {
        value: '<spaceId>',
        repeatable: true,
        help: 'sync only this space; repeat for more. The folder remembers the choice: later runs without --space keep to it (default: every space the token reaches)',
      },
      'all-spaces': { help: 'sync every space the token reaches, and remember that (instead of the spaces given by an earlier --space)' },
      once: { help: 'run one cycle, then exit' },
      interval: { value: '<seconds>', help: 'without --once: also sync every this many seconds, from 5 to 86400 (default 30)' },
      'allow-deletes': { help: 'let a cycle delete more than half of a space’s pages, or those a mass-delete stop holds (the fail-safe stops it otherwise)' },
      'dry-run': { help: 'plan one cycle and print it: only read requests, nothing written' },
      json: { help: 'with --dry-run: print the plan as JSON' },
      'gitbook-path': {
        value: '<file or page id>',
        repeatable: true,
        help: 'with --once (or --dry-run): move this page, kept off GitBook’s path where you put it, to GitBook’s path by a local rename; nothing is sent. Repeat for more',
      },
    },
    details: [
      'Without --once, Quire watches the folder and pushes each burst of saves as they settle, until Ctrl-C.',
      'The token comes from QUIRE_TOKEN, else from the keychain entry `quire login` saved for the API.',
      'Without --api, QUIRE_TOKEN goes only to the address you gave for this folder before (--api once, or the app), never to one only its mirror names.',
      EXIT_SYNC,
    ],
    finishesOnStop: true,
    load: async () => (await import('./commands/sync')).sync,
  },
  status: {
    summary: 'the sync state and what to do about it; per space: last sync, pending edits, conflicts, your change request (offline)',
    flags: { dir, json },
    details: [EXIT_PLAIN],
    load: async () => (await import('./commands/status')).status,
  },
  review: {
    summary: 'your inbox, open change requests and unresolved comments (refreshed when the API is reachable)',
    flags: {
      dir,
      json,
      'mark-read': { help: 'with --json: count what is listed as read (the text form always does)' },
      dismiss: {
        value: '<n>',
        help: 'put away an action the server refused, or give up on one waiting to be sent (its number, as `quire review` lists it)',
      },
    },
    details: [EXIT_PLAIN],
    load: async () => (await import('./commands/review')).run,
  },
  inbox: {
    summary: 'what needs you, sorted: reviews asked of you, changes requested on yours, ready to merge, blocked (and on what), mentions and replies',
    flags: {
      dir,
      json,
      space: { value: '<spaceId>', help: 'the space of the change request <n> names, where several spaces have one so numbered' },
      pin: { value: '<n>', help: 'keep this item first in its group: a change request’s number, or a thread’s comment id' },
      unpin: { value: '<n>', help: 'stop pinning it' },
      snooze: { value: '<n>', help: 'put it out of sight until it changes (new activity, a new revision, another group), or until --until' },
      until: { value: '<date>', help: 'with --snooze: until this date (2026-03-01, midnight UTC) or time (2026-03-01T09:00Z), whatever happens' },
      unsnooze: { value: '<n>', help: 'bring a snoozed item back now' },
    },
    details: [
      'Refreshed first when the API is reachable; offline it sorts what the mirror holds and says since when. Pins and snoozes are kept in the folder’s mirror.',
      EXIT_PLAIN,
    ],
    load: async () => (await import('./commands/inbox')).inbox,
  },
  check: {
    summary: 'what would break on the server: links, SUMMARY.md, blocks, frontmatter, file sizes, OpenAPI blocks (offline)',
    flags: {
      dir: { ...dir, help: 'a sync folder, a Git Sync repository or one space folder' },
      space: { value: '<spaceId>', repeatable: true, help: 'check only this space of a sync folder; repeat for more' },
      'errors-only': { help: 'list only errors (the summary still counts warnings and info)' },
      json,
    },
    details: ['Exit codes: 0 no errors (warnings printed), 1 it could not run, 2 usage, 3 errors found, 130 stopped (Ctrl-C).'],
    load: async () => (await import('./commands/check')).check,
  },
  comment: {
    summary: 'start, edit, delete, reply to, resolve, reopen, react to a comment, or apply its suggestion (queued when offline, sent by the next sync)',
    flags: { dir, json },
    verbs: {
      new: {
        summary: 'start a comment on a page of main, on a change request, or on a page of a change request',
        flags: {
          page: { value: '<file or page id>', help: 'the page the comment is on' },
          'change-request': { value: '<n>', help: 'the change request (by number) the comment is on, or whose page it is on' },
          line: {
            value: '<n>',
            help: 'the line of the page in the change request (as `quire cr diff` numbers it) the comment is on: it goes on the block holding it (with --page and --change-request)',
          },
          body: commentBody,
          space: spaceOfFolder,
        },
      },
      edit: {
        summary: 'edit your own comment or reply',
        positionals: [postId],
        flags: { body: commentBody },
      },
      delete: { summary: 'delete your own comment or reply', positionals: [postId] },
      reply: {
        summary: 'reply to a comment',
        positionals: [commentId],
        flags: { body: commentBody },
      },
      resolve: { summary: 'mark a comment resolved', positionals: [commentId] },
      reopen: { summary: 'reopen a resolved comment', positionals: [commentId] },
      react: { summary: 'add a reaction', positionals: [commentId], flags: { emoji: { value: '<emoji>', required: true, help: 'the reaction, such as 👍' } } },
      apply: {
        summary: 'apply the change a comment suggests to your file (the next sync pushes it), and resolve its thread with a reply saying so',
        positionals: [commentId],
      },
    },
    details: ['Exit codes: 0 sent or queued, 1 refused by the server or an error, 2 usage, 130 stopped (Ctrl-C).'],
    load: async () => {
      const { run } = await import('./commands/comment');
      // Interactive: when offline, queue the action after a short try instead of a long backoff.
      return (args, io, ctx) => run(args, io, ctx.withApiOptions({ maxAttempts: 2 }));
    },
  },
  cr: {
    summary:
      'change requests: list, show, diff, review, viewed, reviewers, merge, update from main, archive, reopen, edit, checkout; choose where your edits go',
    flags: { dir, space: spaceOfFolder },
    verbs: {
      list: {
        summary: 'the change requests of the synced spaces',
        flags: { status: { value: 'open|draft|archived|merged|all', help: 'which ones (default open)' }, json },
      },
      show: {
        summary: 'one change request: subject, status, author, reviews, reviewers, pages changed, what blocks a merge',
        positionals: [crNumber],
        flags: { json },
      },
      diff: {
        summary: 'its changes against its base, page by page, as a unified diff of the page files (offline: from the mirror, when it has them)',
        positionals: [crNumber],
        flags: {
          page: { value: '<file>', help: 'only this page: its file (in the folder or in the change request) or its page id' },
          stat: { help: 'only the lines added and removed per page, and the pages created, deleted, moved or renamed' },
          word: { help: 'changed words instead of lines: [-removed-]{+added+} (in colour on a terminal)' },
        },
      },
      review: {
        summary: 'approve or request changes (needs the server’s answer), or keep comments in a pending review and send them with the verdict',
        positionals: [crNumber],
        flags: {
          approve: { help: 'approve it' },
          'request-changes': { help: 'ask for changes' },
          comment: { help: 'finish a pending review with its comments only (the API has no comment-only review)' },
          body: { value: '<markdown>', help: 'a comment with the review' },
          start: { help: 'start a pending review: comments on the change request are kept here until you finish it' },
          pending: { help: 'list the comments of your pending review' },
          discard: { help: 'drop your pending review and its comments; nothing of it is sent' },
          json,
        },
      },
      reviewers: {
        summary: 'ask or withdraw reviewers (a user by id, email or display name)',
        positionals: [crNumber],
        flags: {
          add: { value: '<user>', repeatable: true, help: 'ask this member to review; repeat for more' },
          remove: { value: '<user>', repeatable: true, help: 'withdraw this reviewer; repeat for more' },
        },
      },
      merge: {
        summary: 'merge it into main (only by this command, never by sync; needs the server’s answer)',
        positionals: [crNumber],
        flags: { force: { help: 'merge although a page of it has a conflict or check errors in your folder (the server’s rules still apply)' } },
      },
      viewed: {
        summary: 'mark a page of it viewed (until the page changes again), or not (--unset)',
        positionals: [crNumber, { name: '<file or path>', what: 'the page: its file in the folder, its path in the change request, or its id' }],
        flags: { unset: { help: 'mark it not viewed' } },
      },
      update: { summary: 'bring main’s latest changes into it (needs the server’s answer)', positionals: [crNumber] },
      archive: { summary: 'archive it', positionals: [crNumber] },
      reopen: { summary: 'reopen an archived change request', positionals: [crNumber] },
      edit: {
        summary: 'change its subject or description',
        positionals: [crNumber],
        flags: { subject: crSubject, description: { value: '<markdown>', help: 'the new description' } },
      },
      new: {
        summary: 'start a change request that the space’s next pushes go into',
        flags: { subject: crSubject },
      },
      use: { summary: 'send the space’s next pushes into this open change request of yours', positionals: [crNumber] },
      checkout: {
        summary: 'write its content into a read-only folder, to read, `quire check` and `quire preview` (before and after); `quire sync` keeps it current',
        positionals: [crNumber],
        flags: {
          to: {
            value: '<folder>',
            required: true,
            help: 'the folder to write it into: new or empty, outside the sync folder (again: brings it to the latest revision)',
          },
        },
      },
    },
    details: [
      'Reviewers, archive, reopen and edit act at once when the API answers and otherwise queue (sent by the next sync); merge, update and reviews need the server’s answer and say so when offline.',
      'A pending review (`review --start`) keeps comments here, offline too; finishing it sends them in order, then the verdict, each once (what a dropped connection leaves is sent by the next sync).',
      'Merge is held back while a page of the change request has a conflict or `quire check` errors in your folder; --force goes past that, never past the server’s merge rules.',
      'Exit codes: 0 done or queued, 1 refused by the server or an error, 2 usage, 130 stopped (Ctrl-C).',
    ],
    load: async () => {
      const { run } = await import('./commands/cr');
      return (args, io, ctx) => run(args, io, ctx.withApiOptions({ maxAttempts: 2 }));
    },
  },
  search: {
    summary: 'pages and comments, offline: words, "a phrase", prefix*, title:word, author:name, OR, NOT',
    positionals: [{ name: '<terms>', what: 'the words to search for', rest: true }],
    flags: {
      dir,
      space: { value: '<spaceId>', help: 'only this space' },
      kind: { value: 'page|comment|reply', repeatable: true, help: 'only these kinds of results; repeat for more' },
      limit: { value: '<n>', help: 'at most this many results, from 1 to 200 (default 20)' },
      json,
    },
    details: ['A bare last word also finds the words it starts (`instal` finds “Install”), as the app’s search box does.', EXIT_PLAIN],
    load: async () => (await import('./commands/search')).search,
  },
  history: {
    summary: 'every version of a page Quire kept; without a page, the pages with history',
    positionals: [{ ...page, optional: true }],
    flags: {
      dir,
      json,
      'keep-days': { value: '<n>', help: 'keep every version from the last n days, from 0 to 36500 (default 90)' },
      'keep-versions': { value: '<n>', help: 'and at least the last n versions of each page, from 1 to 100000 (default 20)' },
    },
    details: [EXIT_PLAIN],
    load: async () => (await import('./commands/history')).history,
  },
  log: {
    summary: 'what each sync did, newest first: the pages and files pulled and pushed, the change request, who changed main (offline)',
    flags: {
      dir,
      space: { value: '<spaceId>', help: 'only this space' },
      limit: { value: '<n>', help: 'at most this many entries, from 1 to 1000 (default 20)' },
      json,
    },
    details: [
      'Who changed main is named where the API says it: a merge names the change request it merged, its author and who merged it; direct edits name no one.',
      EXIT_PLAIN,
    ],
    load: async () => (await import('./commands/log')).log,
  },
  openapi: {
    summary: "the organizations' OpenAPI specifications: list, pull into the folder, publish a file as a new version, versions",
    flags: { dir, org: { value: '<organizationId>', help: 'only this organization (default: every one the folder knows)' } },
    verbs: {
      list: { summary: 'each specification, its latest version and its file here (refreshed when the API is reachable)', flags: { json } },
      pull: {
        summary: 'write the latest version of each specification (or of one) into the folder; an edit made here is kept',
        positionals: [{ name: '<slug>', what: 'the specification (`quire openapi list` lists them)', optional: true }],
      },
      publish: {
        summary: 'send a file as a new version of a specification (created when the slug is new), once it reads as OpenAPI 3.x or Swagger 2.0',
        positionals: [
          { name: '<slug>', what: 'the specification, such as petstore' },
          { name: '<file>', what: 'the specification file, YAML or JSON' },
        ],
      },
      versions: {
        summary: 'the versions of a specification, newest first (refreshed when the API is reachable)',
        positionals: [{ name: '<slug>', what: 'the specification (`quire openapi list` lists them)' }],
        flags: { json },
      },
    },
    details: [
      'Pulled files go in .openapi/ of the sync folder (another organization: .openapi-<its name>/), named <slug>.yaml or <slug>.json; the preview and `quire check` read OpenAPI blocks from them.',
      'Exit codes: 0 done, 1 refused (a file that is not a specification, with its line and why) or an error, 2 usage, 3 a file edited here and on GitBook (both kept), 130 stopped (Ctrl-C).',
    ],
    load: async () => {
      const { openapi } = await import('./commands/openapi');
      return (args, io, ctx) => openapi(args, io, ctx.withApiOptions({ maxAttempts: 2 }));
    },
  },
  translations: {
    summary: "the organizations' translations: source space → target space, language, status, last run; --run runs one again",
    flags: {
      dir,
      json,
      org: { value: '<organizationId>', help: 'only this organization (default: every one the folder knows)' },
      run: { value: '<translationId>', help: 'ask GitBook to run this translation again (needs the server; never queued)' },
    },
    details: ['Listed from the server when it answers, else from the mirror (saying since when).', EXIT_PLAIN],
    load: async () => {
      const { translations } = await import('./commands/translations');
      return (args, io, ctx) => translations(args, io, ctx.withApiOptions({ maxAttempts: 2 }));
    },
  },
  restore: {
    summary: 'write a version of a page back into the folder; the next sync pushes it',
    positionals: [page],
    flags: { version: { value: '<n>', required: true, help: 'the version number `quire history` shows' }, dir },
    details: ['The file’s current text is kept in history first.', EXIT_PLAIN],
    finishesOnStop: true,
    load: async () => (await import('./commands/restore')).restore,
  },
  ui: {
    summary: 'the app in a browser, served on 127.0.0.1 (first stdout line: the address to open)',
    flags: { api: { ...api, help: 'the API origin, such as https://api.gitbook.com (default: the one this folder last synced with)' }, dir, port },
    details: [EXIT_SERVER],
    finishesOnStop: true,
    load: async () => {
      const { ui } = await import('./commands/ui');
      return (args, io, ctx) => ui(args, io, { tokens: ctx.tokens, given: ctx.given });
    },
  },
  preview: {
    summary: 'the folder as GitBook shows it, with live reload (first stdout line: the address to open)',
    flags: { dir, port },
    details: [EXIT_SERVER],
    finishesOnStop: true,
    load: async () => (await import('./commands/preview')).preview,
  },
  login: {
    summary: 'read an API token from stdin, check it, keep it in the OS keychain',
    flags: { api: { ...api, help: 'the API origin the token is for (default https://api.gitbook.com)' } },
    details: [EXIT_PLAIN],
    load: async () => (await import('./commands/login')).login,
  },
  logout: {
    summary: 'remove the token kept for an API',
    flags: { api: { ...api, help: 'the API origin (default https://api.gitbook.com)' } },
    details: [EXIT_PLAIN],
    load: async () => (await import('./commands/login')).logout,
  },
} satisfies Record<string, CommandSpec>;
