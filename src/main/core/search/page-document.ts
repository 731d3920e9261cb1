/**
 * What search indexes of a page file: its title, its description (frontmatter), and its body
 * as words a person would type. Markup that is not words (GitBook block tags such as
 * `{% hint style="info" %}`, link and image targets, HTML tags, code fence lines) is left out, so searching
 * "info" does not find every page with a hint and snippets read as text.
 */
import { PageFileError, parsePageFile } from '../content';

export interface PageDocument {
  title: string;
  description: string;
  body: string;
}

/** A page file's searchable fields; `fallbackTitle` (the server's title) when the file carries none. */
export function pageDocument(text: string, fallbackTitle = ''): PageDocument {
  try {
    const parsed = parsePageFile(text);
    const description = parsed.meta.description;
    return {
      title: parsed.title ?? fallbackTitle,
      description: typeof description === 'string' ? description : '',
      body: searchableMarkdown(parsed.body),
    };
  } catch (err) {
    if (!(err instanceof PageFileError)) throw err;
    // Frontmatter that does not parse is still the writer's text: index all of it.
    return { title: fallbackTitle, description: '', body: searchableMarkdown(text) };
  }
}

/** Markdown with the markup that is not words taken out (see the module comment). */
export function searchableMarkdown(markdown: string): string {
  return markdown
    .replace(/\{%-?[\s\S]*?-?%\}/g, ' ')
    .replace(/!?\[([^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"\n]*")?\)/g, '$1')
    .replace(/<\/?[a-zA-Z][^<>\n]*>/g, ' ')
    .replace(/^[ \t]*(?:```|~~~)[^\n]*$/gm, ' ')
    .replace(/[ \t]+\n/g, '\n');
}
