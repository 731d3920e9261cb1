/**
 * Naming a person: an organization member by id, email or display name (for `cr reviewers
 * --add`). Online, the organization's members are listed (the API has no lookup by name);
 * offline, the members last listed, else everyone the mirror knows, answer.
 */
import type { ApiClient } from '../api';
import type { Mirror, Person, RemoteUser } from '../mirror';

export type Member = Person & { email: string | null };

/** Lists an organization's members into the mirror. */
async function refreshMembers(
  api: ApiClient,
  mirror: Pick<Mirror, 'reviewers' | 'transaction'>,
  organizationId: string,
  signal?: AbortSignal,
): Promise<Member[]> {
  const members = await api.listAll<{ user: RemoteUser }>((c, q, p) => c.orgs.listMembersInOrganizationById(organizationId, q, p), { signal });
  mirror.transaction(() =>
    mirror.reviewers.setMembers(
      organizationId,
      members.map((m) => m.user),
    ),
  );
  return mirror.reviewers.members(organizationId);
}

/** A name nobody matches, or several do: says who would, and what to give instead. */
export class UnknownPersonError extends Error {
  override name = 'UnknownPersonError';
}

const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();

/** Who `query` could have meant when it names nobody exactly: part of a name or an email, or a name a few letters off. */
function closeTo(candidates: readonly Member[], q: string): Member[] {
  const near = (text: string) => text.includes(q) || (q.length >= 4 && editDistance(text, q) <= 2);
  return candidates.filter((m) => near(fold(m.displayName)) || (m.email !== null && near(fold(m.email))));
}

/** Levenshtein distance (the names compared are short). */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    row = next;
  }
  return row[b.length]!;
}

const who = (list: readonly Member[]) => list.map((m) => `${m.displayName}${m.email ? ` <${m.email}>` : ''}`).join(', ');

/**
 * The one candidate a query names exactly: its id, else its email, else its display name (case
 * and accents aside). A query that names nobody exactly names nobody: it says who it could be.
 */
export function pickPerson(candidates: readonly Member[], query: string): Member {
  const q = fold(query);
  const tiers: ((m: Member) => boolean)[] = [(m) => m.id === query.trim(), (m) => m.email !== null && fold(m.email) === q, (m) => fold(m.displayName) === q];
  for (const matches of tiers) {
    const found = candidates.filter(matches);
    if (found.length === 1) return found[0]!;
    if (found.length > 1) throw new UnknownPersonError(`“${query}” could be ${who(found)}: give the email or the user id.`);
  }
  const close = q === '' ? [] : closeTo(candidates, q).slice(0, 5);
  if (close.length > 0) throw new UnknownPersonError(`No member is called “${query}”: did you mean ${who(close)}? Give a name, an email or a user id exactly.`);
  const known = candidates
    .slice(0, 8)
    .map((m) => m.displayName)
    .join(', ');
  throw new UnknownPersonError(`No member is called “${query}”${known ? ` (members: ${known}${candidates.length > 8 ? ', …' : ''})` : ''}.`);
}

/** The members of the space's organization: listed now when a client is given and the API answers, else as last listed. */
export async function membersOf(
  api: ApiClient | null,
  mirror: Pick<Mirror, 'catalog' | 'reviewers' | 'transaction'>,
  spaceId: string,
  signal?: AbortSignal,
): Promise<Member[]> {
  const orgId = mirror.catalog.space(spaceId)?.organizationId ?? null;
  if (!orgId) return [];
  const known = mirror.reviewers.members(orgId);
  if (!api) return known;
  return refreshMembers(api, mirror, orgId, signal).catch((err: unknown) => {
    if (signal?.aborted) throw err;
    return known;
  });
}

/** The member of the space's organization a query names; the members are listed first when a client is given. */
export async function findMember(
  api: ApiClient | null,
  mirror: Pick<Mirror, 'catalog' | 'reviewers' | 'transaction'>,
  spaceId: string,
  query: string,
  signal?: AbortSignal,
): Promise<Member> {
  // Unreachable: the members last listed (or else the people the mirror knows) answer instead.
  const members = await membersOf(api, mirror, spaceId, signal);
  return pickPerson(members.length > 0 ? members : mirror.reviewers.people(), query);
}
