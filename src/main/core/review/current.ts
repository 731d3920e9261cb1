/**
 * What must not be decided from the mirror: a change request as the server has it now (it may
 * have been archived, renamed or merged since the last refresh), whether it is the user's
 * before pushes go into it, and the merge rules that gate it (they live on the space or its
 * organization, which the mirror lists only every few minutes).
 */
import type { Organization, Space } from '@gitbook/api';
import type { ApiClient } from '../api';
import type { Mirror, RemoteChangeRequest, RemoteUser } from '../mirror';
import { membersOf } from './people';

function spaceOf(mirror: Pick<Mirror, 'reviewViews'>, changeRequestId: string): string {
  const view = mirror.reviewViews.changeRequest(changeRequestId);
  if (!view) throw new Error(`Change request ${changeRequestId} is not in the mirror; refresh review data first.`);
  return view.spaceId;
}

/** Reads the change request from the server into the mirror, and returns it. */
export async function readChangeRequest(
  api: ApiClient,
  mirror: Pick<Mirror, 'reviewRecords' | 'reviewViews' | 'transaction'>,
  changeRequestId: string,
  signal?: AbortSignal,
): Promise<RemoteChangeRequest> {
  const spaceId = spaceOf(mirror, changeRequestId);
  const cr = await api.call<RemoteChangeRequest>((c, p) => c.spaces.getChangeRequestById(spaceId, changeRequestId, p), { signal });
  mirror.transaction(() => mirror.reviewRecords.putChangeRequest(spaceId, cr));
  return cr;
}

/** Whose the change request is, as far as the mirror knows: the user's, someone else's, or not known (who the user is, or its author). */
export function authorship(mirror: Pick<Mirror, 'reviewRecords' | 'reviewViews'>, changeRequestId: string): 'mine' | 'theirs' | 'unknown' {
  const author = mirror.reviewViews.changeRequest(changeRequestId)?.createdBy?.id;
  if (!mirror.reviewRecords.knowsMe() || !author) return 'unknown';
  return author === mirror.reviewRecords.me().id ? 'mine' : 'theirs';
}

/** Asks the server who the user is and the change request as it is now (both written to the mirror): whether it is the user's. */
export async function confirmAuthorship(
  api: ApiClient,
  mirror: Pick<Mirror, 'reviewRecords' | 'reviewViews' | 'transaction'>,
  changeRequestId: string,
  signal?: AbortSignal,
): Promise<'mine' | 'theirs'> {
  const [me, cr] = await Promise.all([
    api.call<RemoteUser>((c, p) => c.user.getAuthenticatedUser(p), { signal }),
    readChangeRequest(api, mirror, changeRequestId, signal),
  ]);
  mirror.transaction(() => mirror.reviewRecords.setMe(me));
  return cr.createdBy?.id === me.id ? 'mine' : 'theirs';
}

/**
 * Reads the merge rules of a space from the server (its own, or its organization's when it
 * inherits them) into the mirror, and the organization's members when a rule names someone the
 * mirror cannot name yet.
 */
export async function readMergeRules(
  api: ApiClient,
  mirror: Pick<Mirror, 'catalog' | 'reviewRecords' | 'reviewers' | 'transaction'>,
  spaceId: string,
  signal?: AbortSignal,
): Promise<void> {
  const space = await api.call<Space>((c, p) => c.spaces.getSpaceById(spaceId, {}, p), { signal });
  const inherits = !space.mergeRules || space.mergeRules.type === 'inherit';
  const org = inherits ? await api.call<Organization>((c, p) => c.orgs.getOrganizationById(space.organization, p), { signal }) : null;
  const at = new Date().toISOString();
  mirror.transaction(() => {
    mirror.catalog.upsertSpace(space, space);
    if (org) mirror.catalog.upsertOrganization(org, org, at);
  });
  const named = (mirror.reviewRecords.mergeRules(spaceId)?.rules ?? []).flatMap((r) => r.users ?? []);
  const known = new Set(mirror.reviewers.people().map((p) => p.id));
  if (named.some((id) => !known.has(id))) await membersOf(api, mirror, spaceId, signal);
}
