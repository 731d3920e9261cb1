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

/** Accepts an API origin with or without a trailing /v1 (the client adds it itself). */
export function normaliseApiUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new InvalidApiUrlError(`“${raw}” is not a web address. Use the API origin, such as https://api.gitbook.com.`, raw);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidApiUrlError(`The API address must start with https:// (or http:// for a local server); got “${raw}”.`, raw);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '')}`;
}
