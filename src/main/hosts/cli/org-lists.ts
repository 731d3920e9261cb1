/**
 * What the commands over an organization's lists (`quire openapi`, `quire translations`) share:
 * which organizations a command means (`--org`, else every one the folder knows), and reading a
 * list from the API when it answers, else from the mirror with one line saying since when.
 */
import { ApiError, type ApiClient } from '../../core/api';
import type { Mirror, OrganizationRow } from '../../core/mirror';
import { when } from '../../../shared/when';
import { flag, UsageError, type ParsedArgs } from './args';
import { AddressNotGivenError } from './context';
import type { CliIo } from './io';
import { errorMessage, shellWord } from './messages';
import { safeField } from './terminal-text';

/** The API client when one can be had (an address and a token); otherwise why not. */
export async function tryApi(
  ctx: { apiFor(mirror: Pick<Mirror, 'catalog' | 'syncFolder'>): Promise<ApiClient> },
  mirror: Pick<Mirror, 'catalog' | 'syncFolder'>,
): Promise<{ api: ApiClient | null; why: string | null }> {
  try {
    return { api: await ctx.apiFor(mirror), why: null };
  } catch (err) {
    // Not "offline": an address no token may go to stops the command (nothing is queued for it either).
    if (err instanceof AddressNotGivenError) throw err;
    return { api: null, why: errorMessage(err, mirror.syncFolder) };
  }
}

/** The organizations `--org` names (one), else every one the folder knows. */
export function organizationsFor(mirror: Pick<Mirror, 'catalog'>, args: ParsedArgs, dir: string): OrganizationRow[] {
  const all = mirror.catalog.organizations();
  if (all.length === 0) {
    throw new UsageError(`this folder knows no organization yet: run \`quire sync --dir ${shellWord(dir)} --once\` first.`, { usage: false });
  }
  const given = flag(args, 'org');
  if (given === undefined) return all;
  const found = all.find((o) => o.id === given);
  if (!found) {
    const list = all.map((o) => `${o.id} (${safeField(o.title)})`).join(', ');
    throw new UsageError(`--org ${given} is not an organization this folder knows (it knows ${list}).`, { usage: false });
  }
  return [found];
}

/**
 * Refreshes each organization's list with `refresh` when the API answers; returns whether the
 * lists are fresh. An organization whose list the server refuses (no such feature, no right to
 * list it) is said on stderr and keeps its last list. When the API cannot be had or does not
 * answer, the mirror's lists stand, and stderr says since when (`listedAt`).
 */
export async function refreshOrFallBack(
  ctx: { apiFor(mirror: Pick<Mirror, 'catalog' | 'syncFolder'>): Promise<ApiClient> },
  mirror: Pick<Mirror, 'catalog' | 'syncFolder'>,
  io: CliIo,
  orgs: readonly OrganizationRow[],
  what: string,
  refresh: (api: ApiClient, org: OrganizationRow) => Promise<unknown>,
  listedAt: (org: OrganizationRow) => string | null,
): Promise<boolean> {
  const local = (reason: string) => {
    const times = orgs.map(listedAt);
    const oldest = times.includes(null) ? null : (times as string[]).sort()[0]!;
    const since = oldest ? `last refreshed ${when(oldest)}` : `${what} never refreshed from the server`;
    io.stderr(`Showing the local mirror, ${since} (${safeField(reason)})`);
  };
  const { api, why } = await tryApi(ctx, mirror);
  if (!api) {
    local(why ?? 'no API');
    return false;
  }
  for (const org of orgs) {
    try {
      await refresh(api, org);
    } catch (err) {
      if (io.signal.aborted) throw err;
      if (err instanceof ApiError && (err.status === 403 || err.status === 404)) {
        io.stderr(`${safeField(org.title)}: the server does not list its ${what} (${safeField(errorMessage(err))}); showing the last list.`);
        continue;
      }
      local(errorMessage(err));
      return false;
    }
  }
  return true;
}
