/**
 * GitBook's icons: a page's `icon:` frontmatter and inline `<i class="fa-github">` name Font
 * Awesome icons. The preview draws them from Font Awesome Free's SVG files
 * (@fortawesome/fontawesome-free, icons under CC BY 4.0), inlined as `<svg>` painted in the
 * text colour, so no font, no CDN and no extra request is needed and the CSP stays as it is.
 * GitBook also offers Font Awesome Pro's icons; a name the free set does not have gets a neutral
 * glyph with the name as its tooltip.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { escapeHtml } from './sanitize';

const STYLES = ['solid', 'regular', 'brands'] as const;
const cache = new Map<string, string | null>();
let svgRoot: string | null | undefined;

function svgFolder(): string | null {
  if (svgRoot === undefined) {
    try {
      svgRoot = join(dirname(createRequire(import.meta.url).resolve('@fortawesome/fontawesome-free/package.json')), 'svgs');
    } catch {
      svgRoot = null;
    }
  }
  return svgRoot;
}

/** The icon's shape (viewBox and path data) from Font Awesome Free, or null when it has no such icon. */
function shape(name: string): string | null {
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  let found: string | null = null;
  const root = svgFolder();
  if (root !== null && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name)) {
    for (const style of STYLES) {
      let svg: string;
      try {
        svg = readFileSync(join(root, style, `${name}.svg`), 'utf8');
      } catch {
        continue;
      }
      const viewBox = /viewBox="([0-9. -]+)"/.exec(svg)?.[1];
      const paths = [...svg.matchAll(/<path[^>]*\bd="([^"]+)"/g)].map((m) => m[1]!);
      if (viewBox && paths.length > 0) {
        found = `<svg class="gb-icon-svg" viewBox="${escapeHtml(viewBox)}" aria-hidden="true" focusable="false">${paths.map((d) => `<path fill="currentColor" d="${escapeHtml(d)}"/>`).join('')}</svg>`;
        break;
      }
    }
  }
  cache.set(name, found);
  return found;
}

/** A Font Awesome name as GitBook writes it (`house`, `fa-house`, `fas fa-house`): the bare name, or null. */
export function iconName(raw: string): string | null {
  const names = raw
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^fa-/, ''))
    .filter((w) => !['fa', 'fas', 'far', 'fab', 'solid', 'regular', 'brands', 'light', 'thin', 'duotone', 'sharp'].includes(w));
  const name = names.at(-1);
  return name && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name) ? name : null;
}

/** An icon as HTML: Font Awesome's shape, or a neutral glyph; its name is the tooltip either way. */
export function iconHtml(raw: string, className = 'gb-icon'): string {
  const name = iconName(raw);
  const svg = name === null ? null : shape(name);
  const label = escapeHtml(name ?? raw);
  if (svg) return `<span class="${className}" role="img" aria-label="${label}" title="${label}">${svg}</span>`;
  return `<span class="${className} gb-icon-unknown" role="img" aria-label="${label}" title="${label} (an icon Quire does not have)">◆</span>`;
}
