import { ApiError, UnexpectedResponseError, type RequestDescription } from './errors';
import { responseShape } from './response-shapes';
import { ShapeProblem } from './shape';
import type { HttpResult, Transport } from './transport';

/** A `fetch` for the official client's serviceBinding that routes every call through our transport. */
export function createPacedFetch(transport: Transport): typeof fetch {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    // Not `instanceof Request`: the first touch of the global Request loads all of fetch's code.
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const result = await transport.send({
      url,
      method: init?.method,
      headers: init?.headers,
      body: init?.body,
      signal: init?.signal,
    });
    return toResponse(result);
  };
}

/** Where our answers keep the request they answer (the official client returns the answer itself, with its `data`). */
const ANSWERS = Symbol('answers');

/** The request an answer of the official client came from, if it came through our fetch. */
export function answeredRequest(answer: object): RequestDescription | undefined {
  return (answer as { [ANSWERS]?: RequestDescription })[ANSWERS];
}

/**
 * The answer as the official client reads it (ok, status, json/text/arrayBuffer/blob): a plain
 * object over the text already read, not a Response (whose web stream costs more than the rest).
 * As a Response's, its body is read once: the text is let go as it is read, so a large answer is
 * not held beside what was parsed from it.
 */
function toResponse(result: HttpResult): Response {
  const { status, statusText, headers, where } = result;
  let unread: string | null = result.body;
  const body = (): string => {
    if (unread === null) throw new TypeError(`${where.method} ${where.path}: the answer's body was read already`);
    const text = unread;
    unread = null;
    return text;
  };
  const response = {
    [ANSWERS]: where,
    ok: status >= 200 && status < 300,
    status,
    statusText,
    headers,
    redirected: false,
    url: '',
    get bodyUsed(): boolean {
      return unread === null;
    },
    text: async (): Promise<string> => body(),
    arrayBuffer: async (): Promise<ArrayBuffer> => new TextEncoder().encode(body()).buffer,
    blob: async (): Promise<Blob> => new Blob([body()]),
    // The official client parses with response.json(): a malformed body is an ApiError that names the request,
    // and an answer of the wrong shape says which field, before any of the core reads it.
    json: async (): Promise<unknown> => {
      const text = body();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new ApiError(
          { ...where, status, statusText },
          `${where.method} ${where.path}: the API answered ${status} but the body is not valid JSON ` +
            '(often a proxy or captive portal in the way). Check the API URL and your network, then try again.',
        );
      }
      try {
        responseShape(where.method, where.path)?.(parsed, '');
      } catch (err) {
        if (err instanceof ShapeProblem) throw new UnexpectedResponseError({ ...where, status }, err.message);
        throw err;
      }
      return parsed;
    },
  };
  return response as unknown as Response;
}
