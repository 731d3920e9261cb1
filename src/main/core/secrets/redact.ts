/**
 * Keeps API tokens out of everything Quire says or stores: error messages, the sync log,
 * mirror rows, the UI, the terminal. A server or proxy may echo the Authorization header
 * back in any part of an answer (status text, error body, a header), and that text then
 * travels through errors into logs and screens; each of those boundaries calls
 * `redactSecrets` on its way out.
 *
 * The set of tokens is process-wide on purpose: a token must not appear in any output of
 * the process, whichever path its text took, and the boundaries (a mirror store, a host's
 * error mapping) should not each need to be handed every token. The API client adds its
 * token when it is built.
 */

const REDACTED = '[redacted]';

/**
 * Shorter strings are not treated as secrets: a placeholder of a few characters cannot be
 * hidden without mangling ordinary words. Real API tokens are far longer.
 */
const MIN_SECRET_LENGTH = 8;

/** `Bearer <credentials>` in any case, with the credential as RFC 6750 allows it (token68). */
const BEARER = /\bbearer(?:\s|%20|\+)+[A-Za-z0-9\-._~+/]+=*/gi;

const secrets = new Set<string>();

/** Adds a token to what `redactSecrets` removes, for the rest of the process. */
export function rememberSecret(secret: string): void {
  const value = secret.trim();
  if (value.length < MIN_SECRET_LENGTH) return;
  secrets.add(value);
  // The same token inside a URL or a form body.
  const encoded = encodeURIComponent(value);
  if (encoded !== value) secrets.add(encoded);
}

/** The text with every known token and every `Bearer …` credential replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out.replace(BEARER, `Bearer ${REDACTED}`);
}

/** `redactSecrets` for optional text (database columns, optional fields). */
export function redactOptional<T extends string | null | undefined>(text: T): T {
  return (typeof text === 'string' ? redactSecrets(text) : text) as T;
}
