/**
 * What a rendered GitBook page does in the browser, shared by `quire preview` (served as
 * `<base>_quire/page-behaviour.js`, imported by its live-reload script) and the app's Pages view
 * (RenderedHtml): the page's HTML itself runs nothing (core/preview sanitises it and both CSPs
 * forbid inline script), so its few interactive parts are wired here, by delegation on the
 * page's root:
 * - tabs: a tablist (click, or the arrow keys, Home and End, as the ARIA tabs pattern has it);
 * - code blocks: the copy button (shown only once this script runs);
 * - math: KaTeX's positioning, carried in `data-gb-style` (core/preview/math.ts says why), applied
 *   through the CSSOM, which `style-src 'self'` allows;
 * - GitBook's search button (`<button data-action="search">`): calls `onSearch` when given.
 * Plain JavaScript (no build step: the preview serves this file as it is); types in the .d.ts beside it.
 */

function selectTab(tab, focus) {
  const list = tab.closest('[role="tablist"]');
  if (!list) return;
  for (const other of list.querySelectorAll('[role="tab"]')) {
    const selected = other === tab;
    other.setAttribute('aria-selected', String(selected));
    other.tabIndex = selected ? 0 : -1;
    const panel = document.getElementById(other.getAttribute('aria-controls') || '');
    if (panel) panel.hidden = !selected;
  }
  if (focus) tab.focus();
}

async function copyCode(button) {
  const code = button.parentElement?.querySelector('code');
  if (!code) return;
  const text = code.textContent || '';
  let copied = false;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch {
    // No clipboard access (an insecure context, a denied permission): select the code so Ctrl+C copies it.
    const range = document.createRange();
    range.selectNodeContents(code);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  }
  button.textContent = copied ? 'Copied' : 'Selected: press Ctrl+C';
  button.dataset.state = copied ? 'copied' : 'selected';
  setTimeout(() => {
    button.textContent = 'Copy';
    delete button.dataset.state;
  }, 1500);
}

/** Applies what the page's HTML cannot do by itself to every new part below `root` (call again after replacing content). */
export function preparePage(root) {
  for (const el of root.querySelectorAll('[data-gb-style]')) el.style.cssText = el.getAttribute('data-gb-style') || '';
  for (const button of root.querySelectorAll('.gb-copy')) button.hidden = false;
}

/**
 * Wires the page below `root` (tabs, copy buttons, math) and keeps doing so for content put
 * there later; returns a function that unwires it. `options.onSearch(query)` answers GitBook's
 * search buttons.
 */
export function enhancePage(root, options = {}) {
  preparePage(root);
  const onClick = (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const tab = target?.closest('[role="tab"]');
    if (tab && root.contains(tab)) return selectTab(tab, false);
    const copy = target?.closest('.gb-copy');
    if (copy && root.contains(copy)) return void copyCode(copy);
    const search = target?.closest('button[data-action="search"]');
    if (search && root.contains(search) && options.onSearch) options.onSearch(search.getAttribute('data-query') || '');
  };
  const onKey = (event) => {
    const tab = event.target instanceof Element ? event.target.closest('[role="tab"]') : null;
    if (!tab || !root.contains(tab)) return;
    const tabs = [...(tab.closest('[role="tablist"]')?.querySelectorAll('[role="tab"]') ?? [])];
    const at = tabs.indexOf(tab);
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    selectTab(tabs[(next + tabs.length) % tabs.length], true);
  };
  root.addEventListener('click', onClick);
  root.addEventListener('keydown', onKey);
  return () => {
    root.removeEventListener('click', onClick);
    root.removeEventListener('keydown', onKey);
  };
}
