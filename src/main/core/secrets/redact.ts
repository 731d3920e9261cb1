/**
 * Keeps API tokens out of everything Quire says or stores: error messages, the sync log,
 * mirror rows, the UI, the terminal. A server or proxy may echo the Authorization header
 * back in any part of an answer (status text, error body, a header), and that text then
 * travels through errors into logs and screens; each of those boundaries calls
 * `redactSecrets` on its way out.
 *
 * Echoes are not always verbatim: proxies and frameworks upper-case header values, base64 them
 * (alone, as `Bearer <token>` or as the `user:token` of basic auth; once or twice), percent-encode
 * them (once or twice), hex-encode them, write them as HTML character references or fullwidth
 * characters, or print them a character at a time. Each remembered token is looked for in all
 * those forms.
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
  // Base64 of base64: the token's own run of the first encoding, found inside the second.
  const exact = [...secrets].flatMap((secret) => base64Forms(secret).flatMap((once) => [once, ...base64Forms(once)]));
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
 * Patterns for the forms where case does not matter: character by character, each as itself
 * (upper- or lower-cased; `/` escaped as `\/` by JSON encoders such as PHP's), percent-encoded
 * once or more (`%2F`, `%252f`), as an HTML character reference (`&#103;`, `&#x67;`) or as its
 * fullwidth twin (`ｇ`), in any mix; hex; and spaced out, a character or a hex pair at a time
 * with one separator between (`g b _ a p i`, `67:62`).
 */
function caselessForms(secret: string): string[] {
  const chars = [...secret];
  const hexPairs = [...Buffer.from(secret, 'utf8')].map((b) => b.toString(16).padStart(2, '0'));
  const SEPARATOR = '[^A-Za-z0-9]';
  return [chars.map(anySpelling).join(''), hexPairs.join(''), chars.map(escapeRegExp).join(SEPARATOR), hexPairs.join(SEPARATOR)].map((p) => `(?:${p})`);
}

/** Fullwidth forms (U+FF01–U+FF5E) stand for printable ASCII, `!` to `~`, at a fixed distance. */
const FULLWIDTH_OFFSET = 0xfee0;

/** One character of a token, as itself or in any of the encodings above. */
function anySpelling(char: string): string {
  const code = char.codePointAt(0)!;
  const bytes = [...Buffer.from(char, 'utf8')].map((b) => `%(?:25)*${b.toString(16).padStart(2, '0')}`).join('');
  const spellings = [char === '/' ? '\\\\?/' : escapeRegExp(char), bytes, `&#0*${code};?`, `&#x0*${code.toString(16)};?`];
  if (code >= 0x21 && code <= 0x7e) spellings.push(String.fromCharCode(code + FULLWIDTH_OFFSET));
  return `(?:${spellings.join('|')})`;
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
