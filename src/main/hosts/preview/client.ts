/**
 * What the preview runs in the browser, served as `<base>_quire/live.js` (an external module
 * script: the CSP allows no inline code) with `<base>_quire/page-behaviour.js` (tabs, copy
 * buttons, math: src/shared/page-behaviour.js, shared with the app) and `<base>_quire/preview.css`,
 * the base being the secret's path.
 * - Live reload: the server sends a `change` event when a file of the folder is saved (and, on
 *   connecting, the folder's version, so a save made while the stream was opening is not
 *   missed); the page fetches itself again and swaps its content in place, keeping the scroll
 *   position and what is typed in the search box (a full reload would flash and lose both).
 *   The event stream sits beside the script (`<base>_quire/events`), found from its own address.
 * - Search: the box in the header asks `<base>_quire/search?q=…` as the writer types and lists
 *   the pages found; Escape closes the list. GitBook's search buttons in a page focus the box.
 */

export const LIVE_RELOAD_SCRIPT = `import { enhancePage, preparePage } from './page-behaviour.js';

const own = new URL(import.meta.url);
const events = new EventSource(new URL('events', own));
let busy = false;
let again = false;

function focusSearch(query) {
  const box = document.getElementById('pv-search');
  if (!box) return;
  if (query) box.value = query;
  box.focus();
  if (query) search();
}
enhancePage(document.body, { onSearch: focusSearch });
showSearch();
// At the width of a small window the table of contents starts folded, so the page comes first.
const nav = document.querySelector('.pv-nav-details');
if (nav && matchMedia('(max-width: 820px)').matches) nav.open = false;

function showSearch() {
  const box = document.getElementById('pv-search');
  if (box) box.hidden = false;
}

async function refresh() {
  if (busy) { again = true; return; }
  busy = true;
  try {
    const response = await fetch(location.pathname, { credentials: 'same-origin', cache: 'no-store' });
    const next = new DOMParser().parseFromString(await response.text(), 'text/html');
    const root = next.getElementById('pv-root');
    if (root) {
      const y = window.scrollY;
      const box = document.getElementById('pv-search');
      const typed = box ? box.value : '';
      const focused = box !== null && document.activeElement === box;
      const navOpen = document.querySelector('.pv-nav-details')?.open;
      const fresh = document.importNode(root, true);
      const freshNav = fresh.querySelector('.pv-nav-details');
      if (freshNav && navOpen !== undefined) freshNav.open = navOpen;
      document.getElementById('pv-root').replaceWith(fresh);
      preparePage(fresh);
      showSearch();
      const newBox = document.getElementById('pv-search');
      if (newBox && typed) { newBox.value = typed; search(); }
      if (newBox && focused) newBox.focus();
      document.title = next.title;
      document.body.dataset.version = next.body.dataset.version || '';
      window.scrollTo(0, y);
    }
  } catch (e) {
    console.warn('Quire preview: could not refresh the page', e);
  } finally {
    busy = false;
    if (again) { again = false; refresh(); }
  }
}
events.addEventListener('change', () => refresh());
// On (re)connecting, the server says which version of the folder it has: a save made before
// the stream opened is not missed.
events.addEventListener('hello', (e) => { if (e.data !== document.body.dataset.version) refresh(); });
events.addEventListener('error', () => document.body.classList.toggle('pv-offline', events.readyState !== EventSource.OPEN));
events.addEventListener('open', () => document.body.classList.remove('pv-offline'));

let asked = 0;
let timer = 0;
async function search() {
  const box = document.getElementById('pv-search');
  const list = document.getElementById('pv-search-results');
  if (!box || !list) return;
  const query = box.value.trim();
  const mine = ++asked;
  if (query === '') { list.hidden = true; list.replaceChildren(); return; }
  let answer;
  try {
    const response = await fetch(new URL('search?q=' + encodeURIComponent(query), own), { credentials: 'same-origin', cache: 'no-store' });
    answer = await response.json();
  } catch {
    answer = { results: [], error: 'Search is not available.' };
  }
  if (mine !== asked) return;
  const items = (answer.results || []).map((r) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = r.url;
    const title = document.createElement('span');
    title.className = 'pv-hit-title';
    title.textContent = r.title;
    const snippet = document.createElement('span');
    snippet.className = 'pv-hit-snippet';
    for (const part of r.snippet || []) {
      const piece = document.createElement(part.match ? 'mark' : 'span');
      piece.textContent = part.text;
      snippet.append(piece);
    }
    a.append(title, snippet);
    li.append(a);
    return li;
  });
  if (items.length === 0) {
    const li = document.createElement('li');
    li.className = 'pv-hit-none';
    li.textContent = answer.error || 'No page matches “' + query + '”.';
    items.push(li);
  }
  list.replaceChildren(...items);
  list.hidden = false;
}
document.addEventListener('input', (e) => {
  if (e.target instanceof HTMLInputElement && e.target.id === 'pv-search') { clearTimeout(timer); timer = setTimeout(search, 120); }
});
document.addEventListener('keydown', (e) => {
  const box = document.getElementById('pv-search');
  if (e.key === 'Escape' && box && document.activeElement === box) { box.value = ''; search(); }
  if (e.key === '/' && box && !(e.target instanceof HTMLInputElement)) { e.preventDefault(); box.focus(); }
});
`;

export const PREVIEW_LAYOUT_CSS = `
:root { color-scheme: light dark; --pv-accent: #346ddb; --pv-line: #8883; --pv-error: #c4291c; --pv-warning: #a15c00; }
@media (prefers-color-scheme: dark) { :root { --pv-accent: #7b9cff; --pv-error: #ff8a7f; --pv-warning: #f0b45a; } }
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: Canvas; color: CanvasText; }
.pv-top { position: sticky; top: 0; z-index: 3; display: flex; gap: 0.8rem; align-items: center; padding: 0.5rem 1.2rem; border-bottom: 1px solid var(--pv-line); background: Canvas; font-size: 0.9rem; min-height: 2.4rem; }
.pv-brand { font-weight: 700; color: inherit; text-decoration: none; white-space: nowrap; }
.pv-space { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; min-width: 0; }
.pv-path { color: GrayText; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.8rem; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; min-width: 0; }
.pv-search-wrap { position: relative; margin-left: auto; flex: 0 1 18rem; min-width: 9rem; }
.pv-search-wrap input { width: 100%; box-sizing: border-box; font: inherit; padding: 0.3rem 0.7rem; border: 1px solid #8886; border-radius: 8px; background: Field; color: FieldText; }
.pv-search-wrap input:focus-visible { outline: 2px solid var(--pv-accent); outline-offset: 1px; }
.pv-search-results { position: absolute; right: 0; top: calc(100% + 0.3rem); width: min(28rem, 90vw); max-height: 60vh; overflow: auto; margin: 0; padding: 0.3rem; list-style: none; background: Canvas; border: 1px solid #8885; border-radius: 10px; box-shadow: 0 8px 24px #0003; }
.pv-search-results a { display: block; padding: 0.45rem 0.6rem; border-radius: 6px; color: inherit; text-decoration: none; }
.pv-search-results a:hover, .pv-search-results a:focus-visible { background: #8882; }
.pv-hit-title { display: block; font-weight: 600; }
.pv-hit-snippet { display: block; font-size: 0.82rem; color: GrayText; }
.pv-hit-snippet mark { background: #f5d90a66; color: inherit; }
.pv-hit-none { padding: 0.5rem 0.6rem; color: GrayText; }
.pv-count { color: inherit; text-decoration: none; border: 1px solid #8885; border-radius: 999px; padding: 0.1rem 0.7rem; white-space: nowrap; }
.pv-count.pv-has-errors { border-color: var(--pv-error); color: var(--pv-error); }
.pv-compare { display: flex; flex-wrap: wrap; gap: 0.4rem 0.8rem; align-items: center; padding: 0.4rem 1.2rem; border-bottom: 1px solid var(--pv-line); font-size: 0.9rem; }
.pv-side { border: 1px solid #8885; border-radius: 999px; padding: 0.1rem 0.7rem; color: inherit; text-decoration: none; }
.pv-side.pv-current { border-color: var(--pv-accent); color: var(--pv-accent); font-weight: 600; pointer-events: none; }
.pv-side.pv-none { color: GrayText; }
.pv-change { color: GrayText; }
.pv-body { display: grid; grid-template-columns: 15rem minmax(0, 1fr) 17rem; gap: 2rem; padding: 1.5rem 1.2rem; }
.pv-nav { font-size: 0.92rem; position: sticky; top: 3.6rem; align-self: start; max-height: calc(100vh - 5rem); overflow: auto; }
.pv-nav-details > summary { display: none; }
.pv-nav ul { list-style: none; margin: 0; padding-left: 0.9rem; }
.pv-nav .nav-list, .pv-nav .nav-group > ul { padding-left: 0; }
.pv-nav a { display: flex; gap: 0.4rem; align-items: center; padding: 0.22rem 0.5rem; border-radius: 6px; color: inherit; text-decoration: none; }
.pv-nav a[href]:hover { background: #8882; }
.pv-nav a[aria-current="page"] { background: color-mix(in srgb, var(--pv-accent) 14%, transparent); color: var(--pv-accent); font-weight: 600; }
.pv-nav .nav-group h2 { font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.05em; color: GrayText; margin: 1.2rem 0 0.3rem 0.5rem; }
.pv-nav .nav-hidden > a { opacity: 0.6; }
.pv-nav .nav-missing > a { color: var(--pv-error); }
.pv-nav .nav-badge { font-size: 0.7rem; border: 1px solid currentColor; border-radius: 999px; padding: 0 0.35rem; margin-left: auto; }
.pv-main { min-width: 0; }
.pv-pager { display: flex; justify-content: space-between; gap: 1rem; max-width: 46rem; margin-top: 3rem; border-top: 1px solid var(--pv-line); padding-top: 1rem; }
.pv-pager a { border: 1px solid #8884; border-radius: 8px; padding: 0.5rem 0.9rem; text-decoration: none; color: inherit; min-width: 0; overflow-wrap: anywhere; }
.pv-pager a span { display: block; font-size: 0.75rem; color: GrayText; }
.pv-side { font-size: 0.88rem; position: sticky; top: 3.6rem; align-self: start; max-height: calc(100vh - 5rem); overflow: auto; display: grid; gap: 1.5rem; align-content: start; }
.pv-side h2 { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.05em; color: GrayText; margin: 0 0 0.5rem; }
.pv-outline ul { list-style: none; margin: 0; padding: 0; border-left: 1px solid var(--pv-line); }
.pv-outline a { display: block; padding: 0.18rem 0 0.18rem 0.8rem; color: inherit; text-decoration: none; opacity: 0.85; }
.pv-outline a:hover { color: var(--pv-accent); opacity: 1; }
.pv-outline .pv-outline-3 a { padding-left: 1.6rem; font-size: 0.84rem; }
.pv-problems small { font-weight: 400; text-transform: none; letter-spacing: 0; }
.pv-problem-list { list-style: none; padding: 0; margin: 0; }
.pv-problem { border-left: 3px solid #8886; padding: 0.1rem 0 0.1rem 0.6rem; margin-bottom: 0.8rem; }
.pv-problem p { margin: 0.2rem 0; overflow-wrap: anywhere; }
.pv-problem.pv-error { border-color: var(--pv-error); }
.pv-problem.pv-warning { border-color: var(--pv-warning); }
.pv-severity { font-weight: 700; text-transform: uppercase; font-size: 0.72rem; }
.pv-error .pv-severity { color: var(--pv-error); }
.pv-warning .pv-severity { color: var(--pv-warning); }
.pv-line { color: GrayText; font-size: 0.75rem; }
.pv-fix { color: GrayText; }
.pv-ok { color: #1f8a4c; margin: 0; }
.pv-home { max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
body.pv-offline .pv-top::after { content: "Preview stopped: saves no longer update this page"; color: var(--pv-error); }
@media (max-width: 1180px) {
  .pv-body { grid-template-columns: 14rem minmax(0, 1fr); }
  .pv-side { grid-column: 2; position: static; max-height: none; }
}
@media (max-width: 820px) {
  .pv-top { flex-wrap: wrap; gap: 0.5rem 0.8rem; padding: 0.5rem 0.8rem; }
  .pv-path { display: none; }
  .pv-search-wrap { flex: 1 1 12rem; }
  .pv-body { grid-template-columns: minmax(0, 1fr); gap: 1.2rem; padding: 1rem 0.8rem; }
  .pv-nav { position: static; max-height: none; border: 1px solid var(--pv-line); border-radius: 8px; padding: 0.3rem 0.5rem; }
  .pv-nav-details > summary { display: list-item; cursor: pointer; font-weight: 600; padding: 0.3rem; }
  .pv-side { grid-column: 1; }
}
`;
