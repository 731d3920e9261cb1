/**
 * Keeps API tokens out of everything Quire says or stores: error messages, the sync log,
 * mirror rows, the UI, the terminal. A server or proxy may echo the Authorization header
 * back in any part of an answer (status text, error body, a header), and that text then
 * travels through errors into logs and screens; each of those boundaries calls
 * `redactSecrets` on its way out.
 *
 * Echoes are not always verbatim: proxies and frameworks upper-case header values, base64 them
 * (alone, as `Bearer <token>` or as the `user:token` of basic auth), percent- or hex-encode them,
 * or print them a character at a time. Each remembered token is looked for in all those forms.
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
/** Every form of every secret: one pattern that ignores case, one that does not (base64). */
let anyCase: RegExp | null = null;
let exactCase: RegExp | null = null;

/** Adds a token to what `redactSecrets` removes, for the rest of the process. */
export function rememberSecret(secret: string): void {
  const value = secret.trim();
  if (value.length < MIN_SECRET_LENGTH || secrets.has(value)) return;
  secrets.add(value);
  const caseless = [...secrets].flatMap(caselessForms);
  const exact = [...secrets].flatMap(base64Forms);
  // Longest first, so a form is never cut short by one of its own prefixes.
  anyCase = new RegExp(byLength(caseless).join('|'), 'gi');
  exactCase = new RegExp(byLength(exact).map(escapeRegExp).join('|'), 'g');
}

/** The text with every known token (in every form above) and every `Bearer …` credential replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  const out = text.replace(BEARER, `Bearer ${REDACTED}`);
  return anyCase && exactCase ? out.replace(exactCase, REDACTED).replace(anyCase, REDACTED) : out;
}

/** `redactSecrets` for optional text (database columns, optional fields). */
export function redactOptional<T extends string | null | undefined>(text: T): T {
  return (typeof text === 'string' ? redactSecrets(text) : text) as T;
}

/**
 * Patterns for the forms where case does not matter: as is, upper- or lower-cased; percent-
 * encoded (`%2F` or `%2f`; `/` escaped as `\/` by JSON encoders such as PHP's); hex; and spaced
 * out, a character or a hex pair at a time with one separator between (`g b _ a p i`, `67:62`).
 */
function caselessForms(secret: string): string[] {
  const chars = [...secret];
  const hexPairs = [...Buffer.from(secret, 'utf8')].map((b) => b.toString(16).padStart(2, '0'));
  const SEPARATOR = '[^A-Za-z0-9]';
  return [
    chars.map((c) => (c === '/' ? '\\\\?/' : escapeRegExp(c))).join(''),
    escapeRegExp(encodeURIComponent(secret)),
    hexPairs.join(''),
    chars.map(escapeRegExp).join(SEPARATOR),
    hexPairs.join(SEPARATOR),
  ].map((p) => `(?:${p})`);
}

/**
 * The token inside base64 text, standard or URL-safe, padded or not, wherever it starts in what
 * was encoded (`Bearer <token>`, `user:token`, the token alone): for each of the three
 * alignments, the run of base64 characters that only the token's own bytes decide. At most the
 * two characters at either end, which mix in neighbouring bytes, stay.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const from = shift === 0 ? 0 : 4;
    const to = Math.floor((shift + bytes.length) / 3) * 4;
    const core = encoded.slice(from, to);
    if (core.length < 8) continue;
    forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(forms)];
}

const byLength = (xs: string[]): string[] => [...new Set(xs)].sort((a, b) => b.length - a.length);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
