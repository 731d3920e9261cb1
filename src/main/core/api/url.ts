/** Mirror meta key remembering which API a sync folder talks to. */
export const API_URL_META = 'api.baseUrl';

/** An API address that is not an http(s) URL; hosts turn it into their own kind of user error. */
export class InvalidApiUrlError extends Error {
  constructor(
    message: string,
    readonly raw: string,
  ) {
    super(message);
    this.name = 'InvalidApiUrlError';
  }
}

/**
 * Accepts an API origin with or without a trailing /v1 (the client adds it itself).
 * The token travels in a header of every request, so the address must be https:// — plain
 * http:// only to this machine (a local server, tests, demos), where nothing crosses a
 * network — and must not hold a user name or password (the token is the only credential).
 */
export function normaliseApiUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new InvalidApiUrlError(`“${raw}” is not a web address. Use the API origin, such as https://api.gitbook.com.`, raw);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidApiUrlError(`The API address must start with https:// (or http:// for a server on this machine); got “${raw}”.`, raw);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new InvalidApiUrlError(
      `The API address ${url.origin} is plain http://, which would send your token in clear text: use https://${url.host}. (http:// is accepted only for a server on this machine: localhost, 127.0.0.1 or [::1].)`,
      raw,
    );
  }
  if (url.username || url.password) {
    throw new InvalidApiUrlError(
      `The API address must not hold a user name or password (${url.protocol}//…@${url.host}): the API token is the only credential. Remove the part before @.`,
      raw,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '')}`;
}

/** This machine: `localhost` (and names under it), 127.0.0.0/8, [::1]. */
function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
