/**
 * What a batch names by key, resolved just before it is sent.
 *
 * Places: the API places a page by index among its siblings (`at`); the planner says which
 * sibling it goes after. The change request's own order is read once per push (one request),
 * only when a change needs a place that is not simply last, and kept up to date as the push's
 * changes go out.
 *
 * Links: a text names a page or asset created in this push as `/pages/new:<path>` or
 * `/files/new:<path>`; it becomes its id once created, the page's batch ref (`./<ref>.md`) for
 * an insert in the same batch, or else the relative path the writer wrote (the next cycle
 * pushes the id once the page exists).
 */
import type { RevisionPage } from '@gitbook/api';
import { parseNewRef, relativeHref, rewriteReferences } from '../content';

export class RequestOrder {
  private children: Map<string | null, string[]> | null = null;

  constructor(private readonly load: () => Promise<readonly RevisionPage[]>) {}

  /** Reads the change request's order if a change needs it and it is not known. */
  async ensure(): Promise<void> {
    if (this.children) return;
    const children = new Map<string | null, string[]>();
    const walk = (list: readonly RevisionPage[], parent: string | null) => {
      children.set(
        parent,
        list.map((p) => p.id),
      );
      for (const p of list) walk(((p as unknown as { pages?: RevisionPage[] }).pages ?? []) as RevisionPage[], p.id);
    };
    walk(await this.load(), null);
    this.children = children;
  }

  get known(): boolean {
    return this.children !== null;
  }

  /** The index `id` takes under `parent` right after `after` (null: first); moves it there. Undefined when `after` is not there. */
  place(id: string, parent: string | null, after: string | null): number | undefined {
    if (!this.children) return undefined;
    this.remove(id);
    const list = this.children.get(parent) ?? [];
    this.children.set(parent, list);
    const at = after === null ? 0 : list.indexOf(after) + 1;
    if (after !== null && at === 0) {
      list.push(id);
      return undefined;
    }
    list.splice(at, 0, id);
    return at;
  }

  /** A page appended under `parent` (no `at` sent). */
  append(id: string, parent: string | null): void {
    if (!this.children) return;
    this.remove(id);
    this.children.set(parent, [...(this.children.get(parent) ?? []), id]);
  }

  remove(id: string): void {
    if (!this.children) return;
    for (const list of this.children.values()) {
      const i = list.indexOf(id);
      if (i >= 0) list.splice(i, 1);
    }
  }

  /** A batch ref became the page's id. */
  rename(from: string, to: string): void {
    if (!this.children) return;
    for (const list of this.children.values()) {
      const i = list.indexOf(from);
      if (i >= 0) list[i] = to;
    }
    const kids = this.children.get(from);
    if (kids) {
      this.children.delete(from);
      this.children.set(to, kids);
    }
  }

  /** Forgets the order (a change put a page back where main had it, which is not simulated). */
  forget(): void {
    this.children = null;
  }
}

export interface PlaceholderContext {
  /** The page's own path (space-relative), for links written back as relative paths. */
  path: string;
  /** Pages created earlier in this push (key -> id) or by an earlier push. */
  pageId: (key: string) => string | null;
  /** Pages inserted in the same batch (key -> ref): inserts may link each other by ref. */
  refInBatch: (key: string) => string | null;
  /** Assets uploaded by this push or an earlier one (path -> file id). */
  fileId: (path: string) => string | null;
}

export function resolvePlaceholders(text: string, ctx: PlaceholderContext): string {
  if (!text.includes('/new:')) return text;
  return rewriteReferences(text, (ref) => {
    const placeholder = parseNewRef(ref.href);
    if (!placeholder) return null;
    const { kind, path, anchor } = placeholder;
    const key = `new:${path}`;
    if (kind === 'page') {
      const id = ctx.pageId(key);
      if (id !== null) return `/pages/${id}${anchor ?? ''}`;
      const ref = ctx.refInBatch(key);
      if (ref !== null) return `./${ref}.md${anchor ?? ''}`;
    } else {
      const id = ctx.fileId(path);
      if (id !== null) return `/files/${id}`;
    }
    return relativeHref(ctx.path, path) + (anchor ?? '');
  });
}
