/**
 * GitBook's buttons in the writer's HTML, after sanitize.ts rebuilt them:
 * `<button class="button primary" data-action="search" data-icon="magnifying-glass">Search help</button>`.
 * GitBook draws a button's icon (`data-icon`) before its label, and an action button as what it
 * opens: `search` as a search field that says its shortcut, `ask` as the assistant's prompt. The
 * preview's search box answers a search button (page-behaviour.js).
 */
import { iconHtml } from './icons';

const DEFAULT_ICON: Record<string, string> = { search: 'magnifying-glass', ask: 'wand-magic-sparkles' };

export function gitbookButtons(html: string): string {
  if (!html.includes('<button')) return html;
  return html.replace(/<button\b([^>]*)>/g, (tag, attributes: string) => {
    const action = / data-action="(search|ask)"/.exec(attributes)?.[1] ?? null;
    const icon = / data-icon="([^"]+)"/.exec(attributes)?.[1] ?? (action ? DEFAULT_ICON[action]! : null);
    if (!action && !icon) return tag;
    const classes = action ? ` gb-action gb-action-${action}` : '';
    const opened = / class="/.test(attributes) ? tag.replace(/ class="([^"]*)"/, ` class="$1${classes}"`) : `<button class="${classes.trim()}"${attributes}>`;
    const shortcut = action === 'search' ? '<kbd class="gb-action-key">Ctrl K</kbd>' : '';
    return `${opened}${icon ? iconHtml(icon, 'gb-icon gb-button-icon') : ''}${shortcut}`;
  });
}
