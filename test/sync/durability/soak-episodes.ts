/**
 * Two scripted episodes of the soak (soak.test.ts), each at a seeded moment of its run, beside
 * its random actions (issue 27):
 *
 * - A lost answer, then a merge (item 3): the writer adds a page; the answer to the content
 *   update that creates it is lost; at that very moment a reviewer merges the change request and
 *   the sync process is killed, before it can reconcile. The soak's own checks then find a second
 *   page, should one be pulled beside the writer's file or pushed again.
 * - A collaborator merging while a mass-delete stop waits (item 2), once the first is over and
 *   the sync process has caught up with main: with it down, the writer deletes the files of most
 *   pages; nothing else happens
 *   until the process says it stopped; then a collaborator's change request that edits one of
 *   those pages and another one is merged into main, and the soak goes on. Until the writer
 *   answers the stop (restoring the files, or `sync --once --allow-deletes`), none of those pages
 *   may go from the server but by main itself. The stop also names the files the writer deleted
 *   before it that were not pushed yet: once the episode's files are restored, the sync still says
 *   it is stopped for those, and the writer, who meant them, lets them through.
 */
import type { CliRun } from '../../helpers/cli';
import type { FakeApi, PageRec } from '../../fake';

/** What an episode may do in the soak's world. */
export interface SoakWorld {
  api: FakeApi;
  spaceId: string;
  random(): number;
  note(line: string): void;
  /** A new line of this side's (its token is remembered as written). */
  token(side: 'L' | 'R'): string;
  tokensIn(text: string): string[];
  /** Lines whose page their own side deleted: not looked for at the end. */
  dropped: Set<string>;
  /** Kills the sync process at once (SIGKILL); the soak starts it again. */
  kill(): void;
  /** Kills the sync process and waits until it is gone (`start` starts it again). */
  down(): Promise<void>;
  start(): void;
  /** How many times the sync process said it stopped before a mass delete, since the soak began. */
  stopsSaid(): number;
  /** Page files of the space (paths inside its folder), read, written and removed. */
  files(): string[];
  read(rel: string): string | null;
  write(rel: string, text: string): void;
  remove(rel: string): void;
  /** The writer adds a page. */
  addPage(): void;
  /** A reviewer merges Quire's open change request. */
  merge(): void;
  /** Main's document pages, and main with the open change request applied. */
  mainPages(): PageRec[];
  serverPages(): PageRec[];
  /** Pages main itself deleted (the soak's remote side). */
  removedOnMain: Set<string>;
  /** The server's pages a mass-delete stop recorded in the mirror holds (read with the sync process down). */
  heldDeletes(): readonly string[];
  /** Main's revision the running sync process last synced (read-only, beside it), null before its first. */
  syncedRevision(): string | null;
  /** Each page's file text as the mirror last synced it with main, by page id (read with the sync process down). */
  syncedTexts(ids: readonly string[]): Map<string, string | null>;
  failures: string[];
  syncOnce(...extra: string[]): Promise<CliRun>;
}

export interface Episode {
  /** Called on every step of the soak; `now` in ms since it began. */
  step(now: number): Promise<void>;
  /** Called once the soak's random part is over (the sync process stopped, faults cleared). */
  finish(): Promise<void>;
  /** What happened, for the soak's last line. */
  outcome(): string;
  /** Its scripted part is over (the next episode may begin; the soak may end). */
  over(): boolean;
  /** The episode waits for the sync process to say something: it is not killed, and nothing else happens meanwhile. */
  busy(): boolean;
}

const isContentUpdate = (r: { method: string; path: string }) => r.method === 'POST' && /\/change-requests\/[^/]+\/content$/.test(r.path);

export function lostAnswerThenMerge(world: SoakWorld, at: number): Episode {
  let armed = false;
  let lost = false;
  return {
    async step(now) {
      if (armed || now < at) return;
      armed = true;
      world.api.faults.loseAnswer(1, {
        match: isContentUpdate,
        afterwards: () => {
          lost = true;
          world.merge();
          world.kill();
          world.note('the answer to a content update was lost; merged, kill -9 before it reconciles');
        },
      });
      world.addPage();
      world.note('the next content update is carried out and its answer lost');
    },
    async finish() {},
    outcome: () => (lost ? 'an answer lost, merged, killed' : armed ? 'no content update came to lose' : 'not reached'),
    over: () => lost,
    busy: () => false,
  };
}

/** Begins once `after` is over, or at `latest` (ms into the soak) whatever it is doing. */
export function massDeleteStop(world: SoakWorld, after: Episode, latest: number): Episode {
  /** answering: the writer let the deletes through, and the run that sends them is to be tried again. */
  let state: 'waiting' | 'catching-up' | 'stopping' | 'held' | 'answering' | 'done' = 'waiting';
  /** Until when the episode waits for the sync process to catch up with main. */
  let catchUpUntil = 0;
  /** The deleted files, their texts, and the pages on main they stood for. */
  let deleted: { rel: string; text: string; pageId: string }[] = [];
  let stopsBefore = 0;
  let answerAt = 0;
  let answer = 'not reached';
  let restored = false;

  /**
   * The writer answers the stop: restores the files, or lets the deletes through (tried again
   * while that run fails). A stop not said (yet) is let through: those deletes were meant.
   */
  const respond = async (): Promise<void> => {
    const stopped = state === 'held' ? 'stopped, merged, ' : state === 'stopping' ? 'no stop said, ' : '';
    if (state === 'held' && world.random() < 0.5 && deleted.every((d) => world.read(d.rel) === null)) {
      for (const d of deleted) world.write(d.rel, d.text);
      answer = `${deleted.length} deleted, ${stopped}restored`;
      world.note(`mass delete: the writer restores ${deleted.length} files`);
      restored = true;
      state = 'done';
      return;
    }
    if (state !== 'answering') {
      for (const d of deleted) for (const t of world.tokensIn(d.text)) world.dropped.add(t);
      answer = `${deleted.length} deleted, ${stopped}let through`;
      world.note(`mass delete: the writer lets ${deleted.length} deletes through`);
      state = 'answering';
    }
    const run = await world.syncOnce('--allow-deletes');
    if (run.code === 0 || run.code === 3) state = 'done'; // else a fault, or the folder busy: again next step
  };

  /**
   * Restored, the sync may still say it is stopped: for the files the writer deleted before the
   * episode (the stop named them too). None of the restored pages may be among them; the writer
   * meant those deletes (their lines were dropped then) and lets them through.
   */
  const stillStopped = async (): Promise<void> => {
    for (let i = 0; i < 3; i++) {
      const run = await world.syncOnce();
      if (run.code !== 3 && run.code !== 0) continue; // the folder busy: again
      if (!/Still stopped before deleting pages/.test(run.stderr)) return;
      const held = world.heldDeletes();
      for (const d of deleted)
        if (held.includes(d.pageId) && world.read(d.rel) !== null) world.failures.push(`mass delete: ${d.rel} (${d.pageId}) still held once restored`);
      answer += `, then ${held.length} earlier delete(s) let through`;
      world.note(`mass delete: still stopped for ${held.length} earlier delete(s); the writer lets them through`);
      const through = await world.syncOnce('--allow-deletes');
      if (through.code === 0 || through.code === 3) return; // else a fault, or the folder busy: again
    }
  };

  const checkHeld = () => {
    const onServer = new Set(world.serverPages().map((p) => p.id));
    for (const d of deleted) {
      if (onServer.has(d.pageId) || world.removedOnMain.has(d.pageId)) continue;
      world.failures.push(`mass delete: ${d.rel} (${d.pageId}) was deleted on the server while the stop waited`);
      deleted = deleted.filter((x) => x !== d);
    }
  };

  return {
    async step(now) {
      if (state === 'waiting' && (after.over() || now >= latest)) {
        // Nothing else happens until the sync process has synced main as it is now (at most 20 s).
        state = 'catching-up';
        catchUpUntil = now + 20_000;
        world.note('mass delete: waiting for the sync process to catch up with main');
        return;
      }
      if (state === 'catching-up' && (world.syncedRevision() === world.api.store.currentRevision(world.spaceId).id || now >= catchUpUntil)) {
        // With the sync process down, the files here of the pages main has (but the first) that
        // hold all main says, main unchanged since the mirror last synced them, go. (A page main
        // changed since — say a change request merged just before a kill — would be a conflict,
        // not a delete: with enough of them the first cycle would count too few deletes to stop,
        // and the soak would wait out its time for a stop never said.)
        await world.down();
        const main = world.mainPages();
        const synced = world.syncedTexts(main.map((p) => p.id));
        deleted = world.files().flatMap((rel) => {
          if (rel === 'README.md') return [];
          const text = world.read(rel);
          const page = main.find((p) => text?.startsWith(`# ${p.title}\n\n`) && text.endsWith(p.markdown) && synced.get(p.id) === text);
          return text !== null && page ? [{ rel, text, pageId: page.id }] : [];
        });
        if (deleted.length * 2 <= main.length + 1) {
          answer = `only ${deleted.length} of ${main.length} pages to delete`;
          world.note(`mass delete: ${answer}, not tried`);
          world.start();
          state = 'done';
          return;
        }
        for (const d of deleted) world.remove(d.rel);
        stopsBefore = world.stopsSaid();
        world.start();
        world.note(`mass delete: ${deleted.length} of ${main.length} page files deleted`);
        state = 'stopping';
        return;
      }
      if (state === 'stopping' && world.stopsSaid() > stopsBefore) {
        // The stop is said: a collaborator's change request editing one of those pages, and another, is merged.
        const held = deleted.find((d) => world.mainPages().some((p) => p.id === d.pageId));
        const other = world.mainPages().find((p) => !deleted.some((d) => d.pageId === p.id));
        const sam = world.api.store.addUser({ displayName: 'Sam Okafor' });
        const cr = world.api.store.addChangeRequest(world.spaceId, { subject: 'Edits', createdBy: sam.id });
        for (const page of [held && world.mainPages().find((p) => p.id === held.pageId), other]) {
          if (page)
            world.api.store.editPage(
              world.spaceId,
              page.id,
              { markdown: `${page.markdown}\n${world.token('R')} wrote on GitBook.\n` },
              { changeRequest: cr.id },
            );
        }
        world.api.store.mergeChangeRequest(world.spaceId, cr.id, sam.id);
        world.note(`mass delete: stopped; a collaborator's change request merged (${held?.rel ?? 'no held page'} and another page)`);
        state = 'held';
        answerAt = now + 1000 + world.random() * 2000;
      }
      if (state === 'held') checkHeld();
      if ((state === 'held' && now >= answerAt) || state === 'answering') await respond();
    },
    async finish() {
      if (state === 'held') checkHeld();
      if (state === 'catching-up') answer = 'the sync process never caught up with main, not tried';
      // Not answered yet (or the stop not said before the end): the writer answers now.
      for (let i = 0; i < 3 && (state === 'held' || state === 'stopping' || state === 'answering'); i++) await respond();
      if (restored) await stillStopped();
    },
    outcome: () => `mass delete: ${answer}`,
    over: () => state === 'done',
    busy: () => state === 'catching-up' || state === 'stopping',
  };
}
