/**
 * What a cycle asks the server before it plans: where the change request stands and, beside
 * it, main's tree — two answers that must describe one moment.
 *
 * The two go out together, so a reviewer merging the change request between them leaves the
 * cycle with half of the merge: the state "merged" with main's tree from before it (the pages
 * the change request created look deleted on main, and their files would be pushed again as new
 * pages), or the state "open" with main's tree after it (those pages look new on main, beside
 * their own files). Either way one more request settles it: main's tree again, or the state.
 */
import type { Mirror } from '../mirror';
import { changeRequestInfo, type ChangeRequestInfo } from './push';
import { fetchRemoteTree, type RemoteTree } from './remote';
import type { SpaceCycle } from './space-cycle';

export interface Asked {
  changeRequest: ChangeRequestInfo;
  /** Main's tree on its way, when the cycle needs it. */
  treeComing: Promise<RemoteTree> | null;
  /** The tree was asked for beside the state, not after it. */
  beside: boolean;
}

/**
 * Where the change request stands and, at once beside it, main's tree when main moved (or when
 * the cycle needs it: `wanted`); main's tree is asked for afterwards when the change request
 * turns out merged.
 */
export async function askServer(c: SpaceCycle, wanted: boolean): Promise<Asked> {
  const treeWanted = c.space.syncedRevision !== c.space.remoteRevision || wanted;
  const treeComing = treeWanted ? treeOfMain(c) : null;
  let changeRequest: ChangeRequestInfo;
  try {
    changeRequest = await changeRequestInfo(c.pushCtx);
  } catch (err) {
    await treeComing?.catch(() => undefined);
    throw err;
  }
  if (!treeComing && changeRequest.state === 'merged') return { changeRequest, treeComing: treeOfMain(c), beside: false };
  return { changeRequest, treeComing, beside: treeComing !== null };
}

/** The state and main's tree as of one moment: asked again when a merge came between the two answers. */
export async function answersOfOneMoment(c: SpaceCycle, asked: Asked): Promise<{ changeRequest: ChangeRequestInfo; tree: RemoteTree | null }> {
  let { changeRequest } = asked;
  let tree = asked.treeComing ? await asked.treeComing : null;
  if (tree === null || !asked.beside) return { changeRequest, tree };
  if (changeRequest.state === 'open' && mainHasCreatedPage(c.ctx.mirror, c.space.id, tree)) changeRequest = await changeRequestInfo(c.pushCtx);
  else if (changeRequest.state === 'merged' && tree.revision.id !== changeRequest.mergedRevision) tree = await treeOfMain(c);
  return { changeRequest, tree };
}

/** Main holds a page only the open change request created: it was merged since its state was read. */
function mainHasCreatedPage(mirror: Pick<Mirror, 'outbox' | 'content'>, spaceId: string, tree: RemoteTree): boolean {
  for (const [id, page] of mirror.outbox.pushedPages(spaceId)) {
    if (!page.deleted && tree.pages.has(id) && !mirror.content.basePage(spaceId, id)) return true;
  }
  return false;
}

function treeOfMain(c: SpaceCycle): Promise<RemoteTree> {
  const promise = fetchRemoteTree(c.ctx.api, c.space.id, c.ctx.signal);
  promise.catch(() => undefined); // awaited later; a failure must not go unhandled meanwhile
  return promise;
}
