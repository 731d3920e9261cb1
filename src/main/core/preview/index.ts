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

import { highlightCode, preloadHighlighter } from './highlight';
import { preloadMath, renderMath } from './math';
import { previewMarkdown } from './markdown';

/** The languages most docs show code in: loaded ahead, so the first page that uses them pays nothing. */
const COMMON_LANGUAGES = ['javascript', 'typescript', 'python', 'bash', 'shell', 'json', 'yaml', 'xml', 'css', 'go', 'java'];

/**
 * Loads the renderer's larger parts (markdown-it's rules, KaTeX, highlight.js's core and the
 * common languages) and runs each once ahead of the first page: a first use costs several times
 * a later one (modules to load, code to compile), and the writer should not wait for it.
 */
export function preloadRenderer(): void {
  previewMarkdown();
  preloadMath();
  renderMath('x_{i}^2 + \\frac{a}{b}', false);
  renderMath('\\sum_{i=1}^{N} \\sqrt{x_i}', true);
  preloadHighlighter();
  for (const lang of COMMON_LANGUAGES) highlightCode('const x = 1; // warm up\n', lang);
}
