/**
 * Lists the change requests of the spaces a refresh covers. Per organization, whatever the
 * number of its spaces: one listing of every status and one of the open change requests awaiting
 * the user's review (`listChangeRequestsForOrganization`, whose `status` is an array), narrowed
 * to the space when only one is refreshed and filtered here to the refreshed spaces otherwise.
 * A space of unknown organization, or of one whose listing is refused (403), is listed on its
 * own: one listing per status plus the one awaiting review.
 *
 * Both listings are ordered by creation: a change request that moves while a long listing is
 * paged then shifts nothing past the page being read, so none is skipped (ordered by
 * `updatedAt`, one edited mid-listing would jump to a page already read and look deleted).
 */
import type { ChangeRequestOrderBy, ChangeRequestStatus } from '@gitbook/api';
import type { ApiClient } from '../api';
import { ApiError } from '../api';
import type { RemoteChangeRequest } from '../mirror';

// The client's types are enums; the wire values are these strings.
const STATUSES = ['open', 'draft', 'archived', 'merged'] as ChangeRequestStatus[];
const OPEN = 'open' as ChangeRequestStatus;
const BY_CREATION = 'createdAt' as ChangeRequestOrderBy;

/** What the listings say of one space: every change request, and those awaiting the user's review. */
export interface SpaceListing {
  changeRequests: RemoteChangeRequest[];
  awaitingMe: Set<string>;
}

export interface ListedSpace {
  id: string;
  organizationId: string | null;
}

/** Every refreshed space gets a listing, empty when it has no change request. */
export async function listChangeRequests(api: ApiClient, spaces: ListedSpace[], meId: string, signal?: AbortSignal): Promise<Map<string, SpaceListing>> {
  const listings = new Map(spaces.map((s) => [s.id, { changeRequests: [], awaitingMe: new Set<string>() } as SpaceListing]));
  const byOrganization = new Map<string, string[]>();
  const alone: string[] = [];
  for (const s of spaces) {
    if (s.organizationId) byOrganization.set(s.organizationId, [...(byOrganization.get(s.organizationId) ?? []), s.id]);
    else alone.push(s.id);
  }
  const listAlone = (ids: string[]) => Promise.all(ids.map((id) => listSpace(api, id, meId, listings.get(id)!, signal)));
  await Promise.all([
    listAlone(alone),
    ...[...byOrganization].map(async ([organizationId, ids]) => {
      try {
        await listOrganization(api, organizationId, ids, meId, listings, signal);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 403) throw error;
        await listAlone(ids); // nothing of the refused listings was kept
      }
    }),
  ]);
  return listings;
}

async function listOrganization(
  api: ApiClient,
  organizationId: string,
  spaceIds: string[],
  meId: string,
  listings: Map<string, SpaceListing>,
  signal: AbortSignal | undefined,
): Promise<void> {
  const narrow = { orderBy: BY_CREATION, finding: 'all' as const, ...(spaceIds.length === 1 ? { space: spaceIds[0] } : {}) };
  const list = (filter: { status: ChangeRequestStatus[]; requestedReviewer?: string }) =>
    api.listAll<RemoteChangeRequest>(
      (c, query, params) => c.orgs.listChangeRequestsForOrganization(organizationId, { ...query, ...narrow, ...filter }, params),
      { signal },
    );
  const [all, awaitingMe] = await Promise.all([list({ status: STATUSES }), list({ status: [OPEN], requestedReviewer: meId })]);
  // Change requests of the organization's other spaces are not this refresh's: left alone.
  for (const cr of all) listings.get(cr.space ?? '')?.changeRequests.push(cr);
  for (const cr of awaitingMe) listings.get(cr.space ?? '')?.awaitingMe.add(cr.id);
}

async function listSpace(api: ApiClient, spaceId: string, meId: string, listing: SpaceListing, signal: AbortSignal | undefined): Promise<void> {
  const list = (filter: { status: ChangeRequestStatus; requestedReviewer?: string }) =>
    api.listAll<RemoteChangeRequest>(
      (c, query, params) => c.spaces.listChangeRequestsForSpace(spaceId, { ...query, orderBy: BY_CREATION, ...filter }, params),
      { signal },
    );
  const [byStatus, awaitingMe] = await Promise.all([Promise.all(STATUSES.map((status) => list({ status }))), list({ status: OPEN, requestedReviewer: meId })]);
  listing.changeRequests.push(...byStatus.flat());
  for (const cr of awaitingMe) listing.awaitingMe.add(cr.id);
}
