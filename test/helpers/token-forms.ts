/**
 * The forms a proxy or framework is known to turn a token into (issue 17, item 16): upper- or
 * lower-cased; base64, standard or URL-safe, padded or not, of the token alone, of `Bearer
 * <token>` and of basic auth's `user:token`; percent-encoded in either case; spaced out or
 * separated a character at a time; hex, plain or byte by byte (issue 17, item 16). And (issue 27,
 * item 21) HTML numeric entities, decimal or hex; fullwidth characters; base64 of base64; every
 * byte percent-encoded twice.
 */
export function transformedForms(token: string): Record<string, string> {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const urlSafe = (text: string) => b64(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const hex = Buffer.from(token).toString('hex');
  const everyByte = (text: string) => Buffer.from(text).toString('hex').replace(/../g, '%$&');
  const fullwidth = (text: string) => text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
  return {
    upper: token.toUpperCase(),
    lower: token.toLowerCase(),
    base64: b64(token),
    'base64 unpadded': b64(token).replace(/=+$/, ''),
    'base64 url-safe': urlSafe(token),
    'base64 of Bearer': b64(`Bearer ${token}`),
    'base64 url-safe of Bearer': urlSafe(`Bearer ${token}`),
    'base64 of basic auth': b64(`user:${token}`),
    'base64 of basic auth, other user': b64(`apikey:${token}`),
    'base64 of basic auth, no user': b64(`:${token}`),
    'percent-encoded, lower case': encodeURIComponent(token).toLowerCase(),
    spaced: [...token].join(' '),
    'spaced, upper case': [...token.toUpperCase()].join(' '),
    dashed: [...token].join('-'),
    hex,
    'hex upper case': hex.toUpperCase(),
    'hex bytes': hex.match(/../g)!.join(':'),
    'HTML decimal entities': [...token].map((c) => `&#${c.codePointAt(0)};`).join(''),
    'HTML hex entities': [...token].map((c) => `&#x${c.codePointAt(0)!.toString(16).toUpperCase()};`).join(''),
    fullwidth: fullwidth(token),
    'base64 of base64': b64(b64(token)),
    'base64 of base64 of Bearer': b64(b64(`Bearer ${token}`)),
    'base64 url-safe of base64 of basic auth': urlSafe(b64(`user:${token}`)),
    'percent-encoded twice': encodeURIComponent(everyByte(token)),
  };
}
