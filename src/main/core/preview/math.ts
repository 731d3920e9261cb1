/**
 * Math as GitBook shows it: TeX typeset by KaTeX (GitBook's own library), as HTML with KaTeX's
 * classes plus MathML for screen readers. KaTeX positions glyphs with inline `style`
 * attributes, which the preview's and the app's CSP refuse (`style-src 'self'`, no inline
 * styles: the wall that keeps a page's content from restyling the host). So each `style` is
 * moved to `data-gb-style`, and the page behaviour (src/shared/page-behaviour.js) applies it
 * through the CSSOM, which the CSP allows. Only KaTeX's own output carries that attribute: the
 * sanitiser drops it from the writer's HTML. KaTeX runs untrusted (`trust: false`: no
 * `\href`, `\url`, `\htmlStyle`…), with bounded expansion, and a TeX error shows as the source
 * in red rather than failing the page. So does TeX nested past MAX_TEX_DEPTH groups, before KaTeX
 * sees it: its parser recurses per group, and 5,000 `{` ran the stack out.
 *
 * KaTeX is loaded the first time a page has math (it is the largest module of the preview).
 */
import { createRequire } from 'node:module';
import { escapeHtml } from './sanitize';

/** How deep `{…}`, `\left…\right` and `\begin…\end` groups may nest (KaTeX held 400 of the deepest kind). */
export const MAX_TEX_DEPTH = 50;
const TEX_GROUPS = /\\(?:left|begin)(?![a-zA-Z])|\\(?:right|end)(?![a-zA-Z])|\\[\s\S]|[{}]/g;

type Katex = typeof import('katex').default;
let katex: Katex | null = null;

function loadKatex(): Katex {
  katex ??= createRequire(import.meta.url)('katex') as Katex;
  return katex;
}

/** Loads KaTeX now (a host that will render pages soon, such as the preview once it listens). */
export function preloadMath(): void {
  loadKatex();
}

/** TeX as HTML; `display` for a block (centred, on its own line). */
export function renderMath(tex: string, display: boolean): string {
  if (nestsTooDeep(tex)) {
    const why = `Math nested more than ${MAX_TEX_DEPTH} groups deep: the preview shows it as written`;
    return `<span class="katex-error" title="${why}" data-gb-style="color:#cc0000">${escapeHtml(tex)}</span>`;
  }
  const html = loadKatex().renderToString(tex, {
    displayMode: display,
    throwOnError: false,
    trust: false,
    strict: 'ignore',
    output: 'htmlAndMathml',
    maxSize: 50,
    maxExpand: 500,
  });
  // KaTeX escapes every text and attribute value, so ` style="` only ever starts one of its attributes.
  return html.replace(/ style="/g, ' data-gb-style="');
}

function nestsTooDeep(tex: string): boolean {
  let depth = 0;
  for (const [token] of tex.matchAll(TEX_GROUPS)) {
    if (token === '{' || token === '\\left' || token === '\\begin') {
      if (++depth > MAX_TEX_DEPTH) return true;
    } else if (token === '}' || token === '\\right' || token === '\\end') depth = Math.max(0, depth - 1);
  }
  return false;
}
