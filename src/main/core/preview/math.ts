/**
 * Math as GitBook shows it: TeX typeset by KaTeX (GitBook's own library), as HTML with KaTeX's
 * classes plus MathML for screen readers. KaTeX positions glyphs with inline `style`
 * attributes, which the preview's and the app's CSP refuse (`style-src 'self'`, no inline
 * styles: the wall that keeps a page's content from restyling the host). So each `style` is
 * moved to `data-gb-style`, and the page behaviour (src/shared/page-behaviour.js) applies it
 * through the CSSOM, which the CSP allows. Only KaTeX's own output carries that attribute: the
 * sanitiser drops it from the writer's HTML. KaTeX runs untrusted (`trust: false`: no
 * `\href`, `\url`, `\htmlStyle`…), with bounded expansion, and a TeX error shows as the source
 * in red rather than failing the page.
 *
 * KaTeX is loaded the first time a page has math (it is the largest module of the preview).
 */
import { createRequire } from 'node:module';

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
