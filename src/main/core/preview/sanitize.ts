/**
 * The writer's raw HTML, made safe to show: every tag is rebuilt from an allowlist (tag names,
 * attributes), every URL goes through the caller's rewriter (which decides where a link may go),
 * and everything that is not an allowed tag is text, escaped. Nothing of the input reaches the
 * output without passing one of those three doors, so an unknown construct can only ever show
 * as text, never run. Scripts, styles, frames, forms and embedded documents are dropped with
 * their content; event handlers and `style` attributes are dropped (the preview's CSP would block
 * them anyway: this is the second wall).
 */
import markdownIt from 'markdown-it';

/** What to write for a URL attribute (`href`, `src`, `srcset`, `poster`) of `tag`; null drops the attribute. */
export type UrlRewriter = (url: string, attribute: string, tag: string) => string | null;

const words = (list: string): ReadonlySet<string> => new Set(list.split(' '));

const ALLOWED_TAGS = words(
  'a abbr b blockquote br button caption center cite code col colgroup dd del details div dl dt em figcaption figure h1 ' +
    'h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p picture pre q s samp small source span strike strong sub summary ' +
    'sup table tbody td tfoot th thead tr u ul var wbr',
);

/** Elements dropped together with everything up to their end tag. */
const DROPPED_WITH_CONTENT = words('script style template textarea title xmp noscript iframe object noembed noframes svg math');

const ALLOWED_ATTRIBUTES = words(
  'id class title lang dir align valign width height alt colspan rowspan start reversed type open name scope ' +
    'headers datetime media sizes data-size data-type data-view data-card-target data-card-cover data-card-cover-dark ' +
    'data-card-size data-hidden data-full-width data-line-numbers data-action data-icon data-query',
);

const URL_ATTRIBUTES = new Set(['href', 'src', 'srcset', 'poster']);

/** An attribute value as the browser reads it (character references decoded). */
export const unescapeAll = markdownIt().utils.unescapeAll;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Text between tags: `<` and `>` escaped, `&` kept only where it starts a character reference. */
function escapeText(text: string): string {
  return text
    .replace(/&(?!(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/y;
const ATTRIBUTE = /\s+([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/y;

function rebuildTag(name: string, attributes: string, selfClosing: boolean, rewrite: UrlRewriter): string {
  let out = `<${name}`;
  ATTRIBUTE.lastIndex = 0;
  for (let m = ATTRIBUTE.exec(attributes); m; m = ATTRIBUTE.exec(attributes)) {
    const attr = m[1]!.toLowerCase();
    const raw = m[2] ?? m[3] ?? m[4];
    if (URL_ATTRIBUTES.has(attr)) {
      if (raw === undefined) continue;
      const url = rewrite(unescapeAll(raw), attr, name);
      if (url !== null) out += ` ${attr}="${escapeHtml(url)}"`;
      if (url !== null && name === 'a' && attr === 'href' && /^[a-z][a-z0-9+.-]*:/i.test(url)) out += ' target="_blank" rel="noopener noreferrer nofollow"';
    } else if (ALLOWED_ATTRIBUTES.has(attr)) {
      out += raw === undefined ? ` ${attr}` : ` ${attr}="${escapeHtml(unescapeAll(raw))}"`;
    }
  }
  return `${out}${selfClosing ? ' /' : ''}>`;
}

/** Sanitises a fragment of the writer's HTML (a whole HTML block, or one inline tag). */
export function sanitizeHtml(html: string, rewrite: UrlRewriter): string {
  let out = '';
  let text = 0;
  let i = 0;
  const flushText = (to: number) => {
    if (to > text) out += escapeText(html.slice(text, to));
  };
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    flushText(lt);
    let next = lt + 1;
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      next = end < 0 ? html.length : end + 3;
    } else if (html[lt + 1] === '!' || html[lt + 1] === '?') {
      const end = html.indexOf('>', lt);
      next = end < 0 ? html.length : end + 1;
    } else {
      TAG.lastIndex = lt;
      const m = TAG.exec(html);
      if (!m) {
        out += '&lt;';
      } else {
        const name = m[2]!.toLowerCase();
        next = TAG.lastIndex;
        if (DROPPED_WITH_CONTENT.has(name)) {
          if (!m[1]) {
            const close = html.toLowerCase().indexOf(`</${name}`, next);
            const end = close < 0 ? -1 : html.indexOf('>', close);
            next = end < 0 ? html.length : end + 1;
          }
        } else if (ALLOWED_TAGS.has(name)) {
          out += m[1] ? `</${name}>` : rebuildTag(name, m[3] ?? '', m[4] === '/', rewrite);
        }
      }
    }
    i = next;
    text = next;
  }
  flushText(html.length);
  return out;
}

/** Schemes a link may use; everything else (javascript:, data:, file:, custom app schemes) is dropped. */
const SAFE_LINK = /^(?:https?|mailto|tel):/i;
const SAFE_IMAGE_DATA = /^data:image\/(?:png|gif|jpe?g|webp|avif);/i;

/** Whether a URL may appear in the page as it is: relative, or with a safe scheme (images may also be raster data: URLs). */
export function isSafeUrl(url: string, attribute: string): boolean {
  // Browsers ignore leading spaces and controls, and tabs or newlines anywhere, when they read a scheme.
  let start = 0;
  while (start < url.length && url.charCodeAt(start) <= 0x20) start++;
  const bare = url.slice(start).replace(/[\t\n\r]/g, '');
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(bare);
  if (!scheme) return true;
  return SAFE_LINK.test(bare) || (attribute !== 'href' && SAFE_IMAGE_DATA.test(bare));
}
