import { QuireError } from './contract';
import { clipText } from './clip-text';

/**
 * Returns the URL normalised when it may be handed to the system browser:
 * http(s) only, no credentials, a real host. Anything else (file:, javascript:,
 * custom schemes that could launch other programs) is refused.
 */
export function checkExternalUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new QuireError('invalid-request', `"${clipText(raw, 101)}" is not a web address, so Quire did not open it.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new QuireError('invalid-request', `Quire only opens http and https links in the browser; refused a ${url.protocol} link.`);
  }
  if (url.username || url.password) throw new QuireError('invalid-request', 'Quire does not open links that carry a user name or password.');
  if (!url.hostname) throw new QuireError('invalid-request', 'That link has no host, so Quire did not open it.');
  return url.href;
}
