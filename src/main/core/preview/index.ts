/**
 * Rendering GitBook pages as GitBook shows them, for `quire preview` and the app's Pages view
 * (one renderer for both). Pure: the host gives the page text and a RenderContext (or a checked
 * folder and its URL scheme), and gets HTML that is safe to insert.
 */
export type { LinkedPage, LinkOutcome, RenderContext } from './context';
export { folderRenderContext, pageTitle, type PreviewUrls } from './folder-context';
export { iconHtml } from './icons';
export { renderNavigation } from './navigation';
export { type RenderedPage, renderPage } from './render-page';
export { escapeHtml, isSafeUrl, sanitizeHtml, type UrlRewriter } from './sanitize';

import { preloadHighlighter } from './highlight';
import { preloadMath } from './math';
import { previewMarkdown } from './markdown';

/** Loads the renderer's larger parts (markdown-it's rules, KaTeX, highlight.js's core) ahead of the first page. */
export function preloadRenderer(): void {
  previewMarkdown();
  preloadMath();
  preloadHighlighter();
}
