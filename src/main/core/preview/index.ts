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
