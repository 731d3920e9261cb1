/**
 * Lists the change requests of the spaces a refresh covers. Per organization, whatever the
 * number of its spaces: one listing of every status and one of the open change requests awaiting
 * the user's review (`listChangeRequestsForOrganization`, whose `status` is an array), narrowed
 * to the space when only one is refreshed and filtered here to the refreshed spaces otherwise.
 * A space of unknown organization, or of one whose listing is refused (403), is listed on its
 * own: one listing per status plus the one awaiting review.
 *
 * Beside them, where it costs fewer requests than the refreshed spaces of the organization, the
 * organization's spaces are listed for each space's count of open comments: refresh.ts lists a
 * space's own comments only where that count says there may be something to see.
 *
 * Both listings are ordered by creation: a change request that moves while a long listing is
 * paged then shifts nothing past the page being read, so none is skipped (ordered by
 * `updatedAt`, one edited mid-listing would jump to a page already read and look deleted).
 */
import type { ChangeRequestOrderBy, ChangeRequestStatus, Space } from '@gitbook/api';
import type { ApiClient } from '../api';
import { ApiError, MAX_PAGE_LIMIT } from '../api';
import type { RemoteChangeRequest } from '../mirror';

// The client's types are enums; the wire values are these strings.
const STATUSES = ['open', 'draft', 'archived', 'merged'] as ChangeRequestStatus[];
const OPEN = 'open' as ChangeRequestStatus;
const BY_CREATION = 'createdAt' as ChangeRequestOrderBy;

/** What the listings say of one space: every change request, those awaiting the user's review, and its open comments. */
export interface SpaceListing {
  changeRequests: RemoteChangeRequest[];
  awaitingMe: Set<string>;
  /** The open comments on the space (the server's count); null when not asked. */
  openComments: number | null;
}

export interface ListedSpace {
  id: string;
  organizationId: string | null;
}

/**
 * Every refreshed space gets a listing, empty when it has no change request. `knownSpaces`: how
 * many spaces the mirror knows in each organization (the pages its spaces' listing would take).
 */
export async function listChangeRequests(
  api: ApiClient,
  spaces: ListedSpace[],
  meId: string,
  knownSpaces: ReadonlyMap<string, number>,
  signal?: AbortSignal,
): Promise<Map<string, SpaceListing>> {
  const listings = new Map(spaces.map((s) => [s.id, { changeRequests: [], awaitingMe: new Set<string>(), openComments: null } as SpaceListing]));
  const byOrganization = new Map<string, string[]>();
  const alone: string[] = [];
  for (const s of spaces) {
    if (s.organizationId) byOrganization.set(s.organizationId, [...(byOrganization.get(s.organizationId) ?? []), s.id]);
    else alone.push(s.id);
  }
  const listAlone = (ids: string[]) => Promise.all(ids.map((id) => listSpace(api, id, meId, listings.get(id)!, signal)));
  await Promise.all([
    listAlone(alone),
    ...[...byOrganization].map(([organizationId, ids]) => {
      // The organization's spaces once, where that is fewer requests than its spaces' own comment lists.
      const countsOnce = Math.ceil(Math.max(1, knownSpaces.get(organizationId) ?? 0) / MAX_PAGE_LIMIT);
      const listed = listOrganization(api, organizationId, ids, meId, listings, signal).catch(async (error: unknown) => {
        if (!(error instanceof ApiError) || error.status !== 403) throw error;
        await listAlone(ids); // nothing of the refused listings was kept
      });
      return Promise.all([listed, ids.length > countsOnce ? countOpenComments(api, organizationId, listings, signal) : undefined]);
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

/** Each refreshed space's open comments, from its organization's spaces; a refused listing (403) leaves them unknown. */
async function countOpenComments(api: ApiClient, organizationId: string, listings: Map<string, SpaceListing>, signal: AbortSignal | undefined): Promise<void> {
  let spaces: Space[];
  try {
    spaces = await api.listAll<Space>((c, query, params) => c.orgs.listSpacesInOrganizationById(organizationId, query, params), { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return;
    throw error;
  }
  for (const s of spaces) {
    const listing = listings.get(s.id);
    if (listing && typeof s.comments === 'number') listing.openComments = s.comments;
  }
}
