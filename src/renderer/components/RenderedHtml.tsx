import { useEffect, useRef } from 'react';

/**
 * A page rendered by the host (core/preview: allowlisted tags and URLs, no script; the window's
 * CSP runs none either). Clicks on its links go to `onLink` instead of navigating the window,
 * except links to other pages (`#pages/…`), which the hash routes.
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
    return () => el.removeEventListener('click', onClick);
  }, [onLink]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered and sanitised by the host (core/preview), see above.
  return <div ref={ref} className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
