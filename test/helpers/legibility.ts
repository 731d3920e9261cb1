/**
 * What a person sees, measured in the page: the contrast of every visible piece of text against
 * the background it is drawn on (WCAG 2 relative luminance, from the computed colours), its size,
 * and text that is cut off or overlaps other text. Run with `page.evaluate(inspectLegibility)`.
 */

export interface LegibilityProblem {
  kind: 'contrast' | 'size' | 'clipped' | 'overlap' | 'page-overflow';
  /** Where: a short path of the element (tag.class…) and its text. */
  where: string;
  detail: string;
}

/** The little of the DOM the check reads, typed narrowly (the node project has no DOM types; see page-globals.ts). */
interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
}
interface El {
  tagName: string;
  classList: Iterable<string> & { length: number };
  parentElement: El | null;
  childNodes: Iterable<{ nodeType: number; textContent: string | null }>;
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Box;
  closest(selector: string): El | null;
  contains(other: El): boolean;
}
interface Style {
  color: string;
  backgroundColor: string;
  display: string;
  visibility: string;
  opacity: string;
  position: string;
  clip: string;
  fontSize: string;
  overflowX: string;
  overflowY: string;
  textOverflow: string;
}
interface LegibilityGlobals {
  document: { body: { querySelectorAll(selector: string): Iterable<El> }; documentElement: { scrollWidth: number } };
  getComputedStyle(el: El): Style;
  innerWidth: number;
  innerHeight: number;
}

/** Runs in the browser: everything here must be self-contained (no imports, no outer names). */
export function inspectLegibility(options: { minContrast: number; minFontPx: number }): LegibilityProblem[] {
  const { document, getComputedStyle, innerWidth, innerHeight } = globalThis as unknown as LegibilityGlobals;
  const TEXT_NODE = 3;
  const problems: LegibilityProblem[] = [];
  const parse = (c: string): [number, number, number, number] => {
    const m = /rgba?\(([^)]+)\)/.exec(c);
    if (!m) return [0, 0, 0, 0];
    const parts = m[1]!
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts.length > 3 ? parts[3]! : 1];
  };
  const over = (top: [number, number, number, number], under: [number, number, number]): [number, number, number] => {
    const a = top[3];
    return [top[0] * a + under[0] * (1 - a), top[1] * a + under[1] * (1 - a), top[2] * a + under[2] * (1 - a)];
  };
  const luminance = ([r, g, b]: [number, number, number]) => {
    const f = (v: number) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a: [number, number, number], b: [number, number, number]) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
    return (hi + 0.05) / (lo + 0.05);
  };
  /** The colour behind an element: its own background and its ancestors', blended down to the page's. */
  const backgroundOf = (el: El): [number, number, number] => {
    const layers: [number, number, number, number][] = [];
    for (let e: El | null = el; e; e = e.parentElement) {
      const bg = parse(getComputedStyle(e).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    let color: [number, number, number] = [255, 255, 255];
    for (const layer of layers.reverse()) color = over(layer, color);
    return color;
  };
  const describe = (el: El) => {
    const path: string[] = [];
    for (let e: El | null = el; e && path.length < 4; e = e.parentElement) {
      path.unshift(
        `${e.tagName.toLowerCase()}${e.classList.length ? `.${[...e.classList].join('.')}` : ''}${e.getAttribute('data-testid') ? `[${e.getAttribute('data-testid')}]` : ''}`,
      );
    }
    return `${path.join(' > ')} “${(el.textContent ?? '').trim().slice(0, 60)}”`;
  };
  const hidden = (el: El): boolean => {
    for (let e: El | null = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) === 0) return true;
      // Screen-reader-only text (clipped to a pixel) is not seen.
      if (s.position === 'absolute' && (s.clip === 'rect(0px, 0px, 0px, 0px)' || e.getBoundingClientRect().width <= 1)) return true;
    }
    return false;
  };
  /** The part of an element its scroll boxes (any ancestor that clips) let through, or null. */
  const shownRect = (el: El): Box | null => {
    let { left, top, right, bottom } = el.getBoundingClientRect();
    for (let e = el.parentElement; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const r = e.getBoundingClientRect();
      left = Math.max(left, r.left);
      top = Math.max(top, r.top);
      right = Math.min(right, r.right);
      bottom = Math.min(bottom, r.bottom);
    }
    right = Math.min(right, innerWidth);
    bottom = Math.min(bottom, innerHeight);
    left = Math.max(left, 0);
    top = Math.max(top, 0);
    return right - left > 1 && bottom - top > 1 ? { left, top, right, bottom, width: right - left, height: bottom - top } : null;
  };
  const disabled = (el: El) => !!el.closest('button:disabled, input:disabled, select:disabled, textarea:disabled, [aria-disabled="true"]');

  const textElements: { el: El; rect: Box }[] = [];
  for (const el of document.body.querySelectorAll('*')) {
    const ownText = [...el.childNodes].some((n) => n.nodeType === TEXT_NODE && (n.textContent ?? '').trim() !== '');
    if (!ownText || el.closest('svg, script, style, option')) continue;
    // Only what is on screen: inside the window and not scrolled out of its scroll box.
    const rect = shownRect(el);
    if (!rect || hidden(el)) continue;
    const style = getComputedStyle(el);
    textElements.push({ el, rect });
    if (!disabled(el)) {
      const fg = parse(style.color);
      const bg = backgroundOf(el);
      const r = ratio(over(fg, bg), bg);
      if (r < options.minContrast)
        problems.push({ kind: 'contrast', where: describe(el), detail: `${r.toFixed(2)}:1 (${style.color} on rgb(${bg.map(Math.round).join(', ')}))` });
    }
    const size = Number.parseFloat(style.fontSize);
    if (size < options.minFontPx) problems.push({ kind: 'size', where: describe(el), detail: `${size}px` });
    // Text cut off: a box that hides what overflows it, holding more than it shows (an ellipsis is not a cut).
    if ((style.overflowX === 'hidden' || style.overflowX === 'clip') && style.textOverflow !== 'ellipsis' && el.scrollWidth > el.clientWidth + 1) {
      problems.push({ kind: 'clipped', where: describe(el), detail: `${el.scrollWidth}px of text in ${el.clientWidth}px` });
    }
  }
  // Text drawn over other text (the breadcrumb over the problems panel, say).
  for (let i = 0; i < textElements.length; i++) {
    const a = textElements[i]!;
    for (let j = i + 1; j < textElements.length; j++) {
      const b = textElements[j]!;
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const w = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
      const h = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
      if (w > 2 && h > 2) problems.push({ kind: 'overlap', where: describe(a.el), detail: `overlaps ${describe(b.el)}` });
    }
  }
  if (document.documentElement.scrollWidth > innerWidth + 1) {
    problems.push({ kind: 'page-overflow', where: 'html', detail: `${document.documentElement.scrollWidth}px wide in a ${innerWidth}px window` });
  }
  return problems;
}
