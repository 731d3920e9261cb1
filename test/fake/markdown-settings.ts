/**
 * How the fake treats page markdown. The defaults keep the fake's original behaviour (bodies
 * stored and served verbatim); `GITBOOK_MARKDOWN` switches on everything GitBook does. The
 * settings object lives on the store, so tests may change it at run time (`fake.markdown.x = …`).
 */

export interface MarkdownSettings {
  /**
   * GitBook's reference model. Writes resolve links (relative paths, `/pages/…`, batch refs) to
   * stable references before storing; reads honour `format.markdown.refs` (`relative`, the
   * default, renders page references as relative links). Off: bodies are stored and served
   * verbatim, `format.markdown.refs` is ignored.
   */
  stableRefs: boolean;
  /** `format=markdown` answers start with YAML frontmatter built from the page's fields. */
  frontmatter: boolean;
  /** `format=markdown` answers start with `# <page title>`. */
  titleHeading: boolean;
  /**
   * How `relative` reads link to a page that has children: `folder` (`../guides/`, `./`, as Git
   * Sync writes) or `readme` (`../guides/README.md`). Writes accept both.
   */
  readmeLinks: 'folder' | 'readme';
  /**
   * What a write does with a markdown link to a page that resolves to nothing: `keep` it as
   * written, or `text` (replace the link by its text, as the spec says GitBook does).
   */
  unresolvedLinks: 'keep' | 'text';
  /**
   * GitBook's import precedence on writes: a markdown document's frontmatter and leading
   * `# heading` win over the change's `title`/`icon`/… fields (the heading is always removed
   * from the body), and a new page with no title at all is called "Untitled". Off: the
   * change's fields win and a page without a title is refused (the fake's original rules).
   */
  documentMetadataFirst: boolean;
  /**
   * How comment and reply bodies a client writes are stored: `verbatim`, or `serialized` as
   * GitBook's markdown serializer writes them back from the document it keeps (`*x*` becomes
   * `_x_`, `__x__` becomes `**x**`, `*` and `+` bullets become `-`).
   */
  commentMarkdown: 'verbatim' | 'serialized';
}

export const DEFAULT_MARKDOWN: Readonly<MarkdownSettings> = Object.freeze({
  stableRefs: false,
  frontmatter: false,
  titleHeading: false,
  readmeLinks: 'folder',
  unresolvedLinks: 'keep',
  documentMetadataFirst: false,
  commentMarkdown: 'verbatim',
});

/** Everything GitBook does (links that resolve to nothing are still kept, see `unresolvedLinks`). */
export const GITBOOK_MARKDOWN: Readonly<MarkdownSettings> = Object.freeze({
  stableRefs: true,
  frontmatter: true,
  titleHeading: true,
  readmeLinks: 'folder',
  unresolvedLinks: 'keep',
  documentMetadataFirst: true,
  commentMarkdown: 'serialized',
});

/** The title GitBook gives a page inserted without any title. */
export const UNTITLED = 'Untitled';
