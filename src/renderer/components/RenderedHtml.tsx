import { useEffect, useRef } from 'react';
import { enhancePage, preparePage } from '../../shared/page-behaviour.js';

/**
 * A page rendered by the host (core/preview: allowlisted tags and URLs, no script; the window's
 * CSP runs none either). Clicks on its links go to `onLink` instead of navigating the window,
 * except links to other pages (`#pages/…`), which the hash routes. Its tabs, copy buttons and
 * math are wired by the page behaviour the preview uses too (src/shared/page-behaviour.js).
 */
export function RenderedHtml({ html, onLink, className = 'gb-page' }: { html: string; onLink?(href: string): void; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onClick = (e: MouseEvent) => {
      const a = (e.target as HTMLElement).closest('a');
      const href = a?.getAttribute('href');
      if (!a || !href || href.startsWith('#pages/')) return;
      e.preventDefault();
      if (href.startsWith('#')) el.querySelector(`[id="${CSS.escape(decodeURIComponent(href.slice(1)))}"]`)?.scrollIntoView();
      else onLink?.(href);
    };
    el.addEventListener('click', onClick);
    const stop = enhancePage(el);
    return () => {
      el.removeEventListener('click', onClick);
      stop();
    };
  }, [onLink]);
  useEffect(() => {
    if (ref.current && html) preparePage(ref.current);
  }, [html]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered and sanitised by the host (core/preview), see above.
  return <div ref={ref} className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
