/**
 * The shape of every answer the core reads, keyed by request: the fields sync, review and
 * the hosts use, as the official OpenAPI document declares them. The client checks each
 * 2xx answer against its entry before anyone reads it (fetch-adapter.ts), so a server or
 * proxy that answers 200 with something else is stopped with one line naming the field.
 * Requests not listed here pass unchecked.
 */
import { array, boolean, type Check, lazy, list, number, object, optional, ShapeProblem, string } from './shape';

const user = object({ id: string, displayName: optional(string) });

const organization = object({ id: string, title: string });

const space = object({
  id: string,
  organization: string,
  title: string,
  revision: string,
  parent: optional(string),
  emoji: optional(string),
  visibility: optional(string),
  deletedAt: optional(string),
  /** Open comments on the space: a review refresh lists its comments only where there may be some (review/refresh.ts). */
  comments: optional(number),
});

const collection = object({ id: string, organization: string, title: string, parent: optional(string) });

const treePage: Check<unknown> = object({ id: string, type: string, title: string, pages: optional(array(lazy(() => treePage))) });

const file = object({ id: string, name: string, contentType: string, size: number, downloadURL: string });

const revision = object({ id: string, pages: array(treePage), files: optional(array(file)) });

/** One page asked for with `format=markdown`: a document carries its markdown (with `format=document`, its document). */
const pageWithBody: Check<unknown> = (value, at) => {
  const page = object({ id: string, type: optional(string), markdown: optional(string), document: optional(object({ nodes: array((v) => v) })) })(value, at);
  if (page.type === 'document' && typeof page.markdown !== 'string' && page.document === undefined)
    throw new ShapeProblem(at === '' ? 'markdown' : `${at}.markdown`, 'a string', page.markdown);
  return page;
};

const changeRequest = object({ id: string, number: number, status: string, subject: optional(string) });

/** The organization's listing: each change request names its space (listings.ts files it by that). */
const changeRequestOfOrganization = object({ id: string, number: number, status: string, subject: optional(string), space: string });

const member = object({ user });

const review = object({ id: string, reviewer: user, status: string, outdated: optional(boolean), revision: optional(string), createdAt: string });

/** A user or a team asked to review (`kind` says which). */
const requestedReviewer = object({ kind: optional(string), user: optional(user), team: optional(object({ id: string })) });

const reply = object({ id: string, postedBy: user, postedAt: string, body: optional(object({ markdown: optional(string) })) });

const comment = object({
  id: string,
  postedBy: user,
  postedAt: string,
  body: optional(object({ markdown: optional(string) })),
  replies: optional(number),
  status: optional(string),
});

const revisionPages = object({ pages: array(object({ id: string })) });

const mergeOrUpdate = object({ revision: optional(string), result: optional(string) });

/** A content batch's answer (compat=false): only what push.ts reads back. */
const contentBatch = object({
  changeRequest: optional(object({ revision: optional(string) })),
  changes: optional(array(object({ object: string }))),
  insertedFiles: optional(array(object({ id: string, name: string }))),
});

const site = object({ id: string, title: string });
const siteSpace = object({ id: string, path: string });
const section = object({ id: string, title: string, path: string });
const sectionGroup = object({ id: string, title: string });
const shareLink = object({ id: string });

const openapiSpec = object({ id: string, slug: string, updatedAt: string, lastVersion: optional(string), sourceURL: optional(string) });
const openapiVersion = object({ id: string, url: string, createdAt: optional(string) });
const openapiRaw = object({ text: string, format: string });
const translation = object({
  id: string,
  status: string,
  source: object({ space: string, language: string }),
  language: string,
  updatedAt: string,
  result: optional(object({ space: string })),
  stats: optional(object({ runs: optional(number) })),
});

/** A path segment: one id. */
const ID = '[^/]+';

/** [method, path below /v1 (no query), shape]. */
const ROUTES: [string, string, Check<unknown>][] = [
  ['GET', '/user', user],
  ['GET', '/orgs', list(organization)],
  ['GET', `/orgs/${ID}`, organization],
  ['GET', `/orgs/${ID}/members`, list(member)],
  ['GET', `/orgs/${ID}/change-requests`, list(changeRequestOfOrganization)],
  ['GET', `/orgs/${ID}/spaces`, list(space)],
  ['GET', `/orgs/${ID}/collections`, list(collection)],
  ['GET', `/orgs/${ID}/sites`, list(site)],
  ['GET', `/orgs/${ID}/sites/${ID}/site-spaces`, list(siteSpace)],
  ['GET', `/orgs/${ID}/sites/${ID}/sections`, list(section)],
  ['GET', `/orgs/${ID}/sites/${ID}/section-groups`, list(sectionGroup)],
  ['GET', `/orgs/${ID}/sites/${ID}/share-links`, list(shareLink)],
  ['GET', `/orgs/${ID}/openapi`, list(openapiSpec)],
  ['GET', `/orgs/${ID}/openapi/${ID}`, openapiSpec],
  ['PUT', `/orgs/${ID}/openapi/${ID}`, openapiSpec],
  ['GET', `/orgs/${ID}/openapi/${ID}/versions`, list(openapiVersion)],
  ['GET', `/orgs/${ID}/openapi/${ID}/versions/latest`, openapiVersion],
  ['GET', `/orgs/${ID}/openapi/${ID}/versions/latest/content/raw`, openapiRaw],
  ['GET', `/orgs/${ID}/translations`, list(translation)],
  ['GET', `/orgs/${ID}/translations/${ID}`, translation],
  ['GET', `/spaces/${ID}`, space],
  ['GET', `/spaces/${ID}/content`, revision],
  ['GET', `/spaces/${ID}/content/page/${ID}`, pageWithBody],
  ['GET', `/spaces/${ID}/revisions/${ID}/pages`, revisionPages],
  ['GET', `/spaces/${ID}/revisions/${ID}/page/${ID}`, pageWithBody],
  ['GET', `/spaces/${ID}/change-requests`, list(changeRequest)],
  ['POST', `/spaces/${ID}/change-requests`, changeRequest],
  ['GET', `/spaces/${ID}/change-requests/${ID}`, changeRequest],
  ['PATCH', `/spaces/${ID}/change-requests/${ID}`, changeRequest],
  ['POST', `/spaces/${ID}/change-requests/${ID}/merge`, mergeOrUpdate],
  ['POST', `/spaces/${ID}/change-requests/${ID}/update`, mergeOrUpdate],
  ['GET', `/spaces/${ID}/change-requests/${ID}/reviews`, list(review)],
  ['POST', `/spaces/${ID}/change-requests/${ID}/reviews`, review],
  ['GET', `/spaces/${ID}/change-requests/${ID}/requested-reviewers`, list(requestedReviewer)],
  ['GET', `/spaces/${ID}/change-requests/${ID}/content`, revision],
  ['POST', `/spaces/${ID}/change-requests/${ID}/content`, contentBatch],
  ['GET', `/spaces/${ID}/change-requests/${ID}/content/page/${ID}`, pageWithBody],
  ['GET', `/spaces/${ID}/comments`, list(comment)],
  ['GET', `/spaces/${ID}/change-requests/${ID}/comments`, list(comment)],
  ['GET', `/spaces/${ID}/comments/${ID}/replies`, list(reply)],
  ['GET', `/spaces/${ID}/change-requests/${ID}/comments/${ID}/replies`, list(reply)],
  ...['GET', 'PUT'].flatMap((method): [string, string, Check<unknown>][] => [
    [method, `/spaces/${ID}/comments/${ID}`, comment],
    [method, `/spaces/${ID}/change-requests/${ID}/comments/${ID}`, comment],
    [method, `/spaces/${ID}/comments/${ID}/replies/${ID}`, reply],
    [method, `/spaces/${ID}/change-requests/${ID}/comments/${ID}/replies/${ID}`, reply],
  ]),
  ['POST', `/spaces/${ID}/comments`, comment],
  ['POST', `/spaces/${ID}/change-requests/${ID}/comments`, comment],
  ['POST', `/spaces/${ID}/comments/${ID}/replies`, reply],
  ['POST', `/spaces/${ID}/change-requests/${ID}/comments/${ID}/replies`, reply],
];

const TABLE = ROUTES.map(([method, path, check]) => ({ method, path: new RegExp(`^${path}$`), check }));

/** The shape the core reads from this request's answer, if it reads one. */
export function responseShape(method: string, path: string): Check<unknown> | undefined {
  return TABLE.find((r) => r.method === method && r.path.test(path))?.check;
}
