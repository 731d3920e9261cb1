/**
 * What the renderer needs to know about the world around a page, given by its host: where a
 * link leads and what to write for it (the preview server links to its own routes, the app to
 * its views and inline images), the titles of linked pages (content-ref cards), the text of
 * reusable content (includes), the space's variables (expressions) and OpenAPI operations from
 * local specifications. Kept to plain functions so the renderer stays pure.
 */
import type { Variables } from '../content';

/** What to write for one href of the page. */
export interface LinkOutcome {
  /** The URL to write; null: no link (the href is unsafe, or leads nowhere). */
  href: string | null;
  /** Opens outside the preview (a new tab, the system browser). */
  external: boolean;
  /** Why the link is broken (shown on hover), or null. */
  broken: string | null;
}

export interface LinkedPage {
  title: string;
  /** Where the card links to. */
  href: string | null;
}

export interface RenderContext {
  /** The rendered file, relative to the root links resolve against (a sync folder or a space folder). */
  rootPath: string;
  /** What to write for `href` (as written in the file at `fromRootPath`), used as `attribute` (href, src) of `tag`. */
  link(href: string, fromRootPath: string, attribute: string, tag: string): LinkOutcome;
  /** The page an href leads to, for a content-ref card; null when it leads to no page. */
  linkedPage(href: string, fromRootPath: string): LinkedPage | null;
  /** Reusable content an include names: its root-relative path and text, or null when it is not there. */
  include(href: string, fromRootPath: string): { rootPath: string; text: string } | null;
  /** The variables of the space holding the file (its `.gitbook/vars.yaml`); none when absent. */
  variables?(fromRootPath: string): Variables;
  /**
   * The head of an OpenAPI block of the file at `fromRootPath` rendered from its local
   * specification (up to the open `gb-op-body`), or null when the specification is not here.
   */
  openapi?(name: string, args: Readonly<Record<string, string>>, fromRootPath: string): string | null;
  /** Lines of the file (1-based) a comment is on: the block starting there is marked `data-comment-line`. */
  commentLines?: ReadonlySet<number>;
}
