/** A minimal HTTP client for tests of the fake itself: JSON in, status and JSON out. */
import type { FakeApi } from './index';

export interface Answer {
  status: number;
  body: any;
}

export function testClient(fake: FakeApi) {
  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(`${fake.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${fake.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body: unknown) => call('POST', path, body),
    /** `format=markdown` of a page of main (or of a change request), with the given refs mode. */
    markdown: async (spaceId: string, pageId: string, options: { refs?: 'relative' | 'stable'; changeRequest?: string } = {}): Promise<string> => {
      const base = options.changeRequest !== undefined ? `/spaces/${spaceId}/change-requests/${options.changeRequest}` : `/spaces/${spaceId}`;
      const refs = options.refs !== undefined ? `&format.markdown.refs=${options.refs}` : '';
      const answer = await call('GET', `${base}/content/page/${pageId}?format=markdown${refs}`);
      if (answer.status !== 200) throw new Error(`GET page ${pageId}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body.markdown as string;
    },
    /** Applies a content batch to a change request (compat=false answer). */
    batch: (spaceId: string, changeRequest: string, changes: unknown[]) =>
      call('POST', `/spaces/${spaceId}/change-requests/${changeRequest}/content?compat=false`, { changes }),
  };
}
