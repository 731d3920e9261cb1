import { flag, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../io';
import { normaliseApiUrl, type CliContext } from '../context';
import { safeField } from '../terminal-text';

const DEFAULT_API = 'https://api.gitbook.com';

/** `quire login --api <url>`: reads a token from stdin, checks it, stores it in the keychain. */
export async function login(args: ParsedArgs, io: CliIo, ctx: CliContext): Promise<number> {
  const apiUrl = normaliseApiUrl(flag(args, 'api') ?? DEFAULT_API);
  const token = (await io.readStdin()).trim();
  if (!token) {
    io.stderr('No token on stdin. Paste your API token and press Ctrl-D, or pipe it in: quire login --api URL < token.txt');
    return EXIT.usage;
  }
  const api = ctx.client(apiUrl, token, { maxAttempts: 3 });
  const user = await api.call<{ displayName?: string; email?: string }>((c, params) => c.user.getAuthenticatedUser(params));
  await ctx.tokens.set(apiUrl, token);
  // A folder that never synced is told to sync with this address (`quire status`).
  try {
    ctx.given.setSignedIn?.(apiUrl);
  } catch {
    // Only a suggestion is lost: `quire status` then names the default address.
  }
  io.stdout(`Signed in to ${apiUrl} as ${safeField(user.displayName ?? user.email ?? 'unknown user')}; the token is in the OS keychain.`);
  return EXIT.ok;
}

/** `quire logout [--api <url>]`: removes the stored token. */
export async function logout(args: ParsedArgs, io: CliIo, ctx: CliContext): Promise<number> {
  const apiUrl = normaliseApiUrl(flag(args, 'api') ?? DEFAULT_API);
  const removed = await ctx.tokens.delete(apiUrl);
  io.stdout(removed ? `Signed out of ${apiUrl}: token removed from the keychain.` : `No token was stored for ${apiUrl}.`);
  return EXIT.ok;
}
