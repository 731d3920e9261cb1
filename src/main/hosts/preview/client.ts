/**
 * What the preview runs in the browser, served as `<base>_quire/live.js` (an external script:
 * the CSP allows no inline code) and as `<base>_quire/preview.css`, the base being the secret's
 * path. Live reload: the server sends a `change` event when a file of the folder is saved (and,
 * on connecting, the folder's version, so a save made while the stream was opening is not
 * missed); the page fetches itself again and swaps its content in place, keeping the scroll
 * position (a full reload would flash and lose it). The event stream sits beside the script
 * (`<base>_quire/events`): the script finds it from its own address, secret included.
 */

export const LIVE_RELOAD_SCRIPT = `'use strict';
(() => {
  const events = new EventSource(new URL('events', document.currentScript.src));
  let busy = false;
  let again = false;
  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const response = await fetch(location.pathname, { credentials: 'same-origin', cache: 'no-store' });
      const next = new DOMParser().parseFromString(await response.text(), 'text/html');
      const root = next.getElementById('pv-root');
      if (root) {
        const y = window.scrollY;
        document.getElementById('pv-root').replaceWith(document.importNode(root, true));
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
})();
`;

export const PREVIEW_LAYOUT_CSS = `
:root { color-scheme: light dark; }
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: Canvas; color: CanvasText; }
.pv-top { position: sticky; top: 0; z-index: 2; display: flex; gap: 1rem; align-items: center; padding: 0.6rem 1.2rem; border-bottom: 1px solid #8883; background: Canvas; font-size: 0.9rem; }
.pv-brand { font-weight: 700; color: inherit; text-decoration: none; }
.pv-space { font-weight: 600; }
.pv-path { color: GrayText; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.8rem; }
.pv-count { margin-left: auto; color: inherit; text-decoration: none; border: 1px solid #8885; border-radius: 999px; padding: 0.1rem 0.7rem; }
.pv-count.pv-has-errors { border-color: #c4291c; color: #c4291c; }
.pv-body { display: grid; grid-template-columns: 16rem minmax(0, 1fr) 20rem; gap: 2rem; padding: 1.5rem 1.2rem; }
.pv-nav { font-size: 0.92rem; position: sticky; top: 3.5rem; align-self: start; max-height: calc(100vh - 5rem); overflow: auto; }
.pv-nav ul { list-style: none; margin: 0; padding-left: 0.9rem; }
.pv-nav > ul, .pv-nav .nav-group > ul { padding-left: 0; }
.pv-nav a { display: block; padding: 0.22rem 0.5rem; border-radius: 6px; color: inherit; text-decoration: none; }
.pv-nav a[href]:hover { background: #8882; }
.pv-nav a[aria-current="page"] { background: #346ddb22; color: #346ddb; font-weight: 600; }
.pv-nav .nav-group h2 { font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.05em; color: GrayText; margin: 1.2rem 0 0.3rem 0.5rem; }
.pv-nav .nav-hidden > a { opacity: 0.55; }
.pv-nav .nav-missing > a { color: #c4291c; }
.pv-nav .nav-badge { font-size: 0.7rem; border: 1px solid currentColor; border-radius: 999px; padding: 0 0.35rem; margin-left: 0.3rem; }
.pv-main { min-width: 0; }
.pv-pager { display: flex; justify-content: space-between; gap: 1rem; max-width: 46rem; margin-top: 3rem; border-top: 1px solid #8883; padding-top: 1rem; }
.pv-pager a { border: 1px solid #8884; border-radius: 8px; padding: 0.5rem 0.9rem; text-decoration: none; color: inherit; }
.pv-pager a span { display: block; font-size: 0.75rem; color: GrayText; }
.pv-problems { font-size: 0.88rem; position: sticky; top: 3.5rem; align-self: start; max-height: calc(100vh - 5rem); overflow: auto; }
.pv-problems h2 { font-size: 0.95rem; margin: 0 0 0.6rem; }
.pv-problems small { font-weight: 400; color: GrayText; }
.pv-problem-list { list-style: none; padding: 0; margin: 0; }
.pv-problem { border-left: 3px solid #8886; padding: 0.1rem 0 0.1rem 0.6rem; margin-bottom: 0.8rem; }
.pv-problem p { margin: 0.2rem 0; }
.pv-problem.pv-error { border-color: #c4291c; }
.pv-problem.pv-warning { border-color: #a15c00; }
.pv-severity { font-weight: 700; text-transform: uppercase; font-size: 0.72rem; }
.pv-error .pv-severity { color: #c4291c; }
.pv-warning .pv-severity { color: #a15c00; }
.pv-line { color: GrayText; font-size: 0.75rem; }
.pv-fix { color: GrayText; }
.pv-ok { color: #1f8a4c; }
.pv-home { max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
body.pv-offline .pv-top::after { content: "Preview stopped: saves no longer update this page"; color: #c4291c; }
@media (max-width: 1100px) { .pv-body { grid-template-columns: 14rem minmax(0, 1fr); } .pv-problems { grid-column: 2; position: static; max-height: none; } }
`;
