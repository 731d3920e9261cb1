/**
 * Before and after, when the folder previewed is a change request's checkout
 * (core/review/checkout): main at the change request's base, laid out in `.quire-checkout/before/`,
 * is a second site below `<base>_quire/before/`, and every page carries a bar naming the change
 * request, what it did to the page, and a link to the same page on the other side (by page id:
 * a page the change request moved is found at its other path). The record is read again when
 * a sync brings the checkout to a new revision.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { escapeHtml } from '../../core/preview';
import { BEFORE_DIR, type CheckoutManifest, MANIFEST_PATH, readCheckout } from '../../core/review';
import { OWN_PREFIX, PreviewSite } from './site';

export type Side = 'after' | 'before';

/** Where "before" lives below the site's base. */
export const BEFORE_PREFIX = `${OWN_PREFIX}before/`;

const CHANGE_WORDS: Record<string, string> = {
  added: 'new in this change request',
  removed: 'deleted by this change request',
  edited: 'edited by this change request',
  moved: 'moved by this change request',
  unchanged: 'not changed by this change request',
};

export class Compare {
  private stamp = -1;
  private manifest: CheckoutManifest | null = null;
  private beforeSite: PreviewSite | null = null;

  constructor(
    private readonly dir: string,
    private readonly base: string,
    private readonly after: PreviewSite,
  ) {}

  /** The checkout's record, read again when it changed (null: the folder is not a checkout). */
  current(): CheckoutManifest | null {
    let mtime: number;
    try {
      mtime = statSync(join(this.dir, MANIFEST_PATH)).mtimeMs;
    } catch {
      mtime = 0;
    }
    if (mtime !== this.stamp) {
      this.stamp = mtime;
      this.manifest = mtime === 0 ? null : readCheckout(this.dir);
      this.beforeSite = null;
      if (this.manifest) {
        try {
          this.beforeSite = PreviewSite.load(join(this.dir, BEFORE_DIR), null, `${this.base}${BEFORE_PREFIX}`);
        } catch {
          // main had no page at the base: there is no "before" to show
        }
      }
    }
    return this.manifest;
  }

  /** The "before" site, when the folder is a checkout that has one. */
  before(): PreviewSite | null {
    return this.current() ? this.beforeSite : null;
  }

  /** The bar above a page of either side; empty when the folder is not a checkout. */
  bar(side: Side, rootPath: string): string {
    const m = this.current();
    if (!m) return '';
    const page = m.pages.find((p) => (side === 'after' ? p.after : p.before) === rootPath);
    const link = (target: Side, label: string): string => {
      const path = page ? (target === 'after' ? page.after : page.before) : null;
      if (target === side) return `<a class="pv-side pv-current" aria-current="page" href="#">${label}</a>`;
      if (path === null) return `<span class="pv-side pv-none">${label}: ${target === 'before' ? 'not in main' : 'deleted'}</span>`;
      const site = target === 'after' ? this.after : this.beforeSite;
      return site ? `<a class="pv-side" data-side="${target}" href="${escapeHtml(site.urls.of(path))}">${label}</a>` : '';
    };
    const moved = page?.change === 'moved' || (page?.change === 'edited' && page.before !== null && page.after !== page.before);
    const change = page
      ? `<span class="pv-change pv-${page.change}">${CHANGE_WORDS[page.change]}${moved ? ` (from ${escapeHtml(page.before ?? '')})` : ''}</span>`
      : '';
    return `<nav class="pv-compare" aria-label="Before and after"><span>Change request #${m.changeRequest.number} ${escapeHtml(m.changeRequest.subject)}</span>${link('before', 'Before')}${link('after', 'After')}${change}</nav>`;
  }
}
