import type { SiteNodeVM, SiteVM } from '../../shared/contract';
import { useQuery } from '../hooks/use-query';
import { ErrorNotice } from '../components/ErrorNotice';
import { TranslationsPanel } from './TranslationsPanel';

/** Each site's publication state, visibility, structure and share links, then the organizations' translations, read from the mirror. */
export function SitesView() {
  const sites = useQuery('sites.list', {}, ['sites']);
  return (
    <section className="sites" aria-labelledby="sites-title">
      <div className="view-head">
        <h1 id="sites-title">Sites</h1>
      </div>
      <ErrorNotice error={sites.error} />
      {sites.data && sites.data.length === 0 && <p className="muted empty">No sites in the mirror yet. They appear after a sync.</p>}
      {sites.data?.map((site) => (
        <SiteCard key={site.id} site={site} />
      ))}
      <TranslationsPanel />
    </section>
  );
}

function Node({ node }: { node: SiteNodeVM }) {
  if (node.type === 'site-space') {
    return (
      <li className="site-space">
        <span className="node-kind">space</span> {node.title} <code>/{node.path}</code>
        {node.isDefault && <span className="badge">default</span>}
        {node.hidden && <span className="badge muted">hidden</span>}
      </li>
    );
  }
  return (
    <li className={node.type}>
      <span className="node-kind">{node.type === 'group' ? 'group' : 'section'}</span> {node.title}
      {node.type === 'section' && <code>/{node.path}</code>}
      {node.type === 'section' && node.isDefault && <span className="badge">default</span>}
      {node.children.length > 0 && (
        <ul>
          {node.children.map((c) => (
            <Node key={c.id} node={c} />
          ))}
        </ul>
      )}
    </li>
  );
}

function SiteCard({ site }: { site: SiteVM }) {
  return (
    <article className="site card" data-testid={`site-${site.id}`} aria-label={site.title}>
      <header className="site-head">
        <h2>{site.title}</h2>
        <span className={`badge ${site.published ? 'ok' : 'muted'}`}>{site.published ? 'Published' : 'Not published'}</span>
        <span className="badge">{site.visibility}</span>
        {site.organizationTitle && <span className="muted small">{site.organizationTitle}</span>}
      </header>
      {site.children.length > 0 ? (
        <ul className="site-tree" aria-label={`Structure of ${site.title}`}>
          {site.children.map((n) => (
            <Node key={n.id} node={n} />
          ))}
        </ul>
      ) : (
        <p className="muted">No sections or spaces on this site.</p>
      )}
      <h3>Share links</h3>
      {site.shareLinks.length === 0 ? (
        <p className="muted small">None.</p>
      ) : (
        <ul className="share-links">
          {site.shareLinks.map((l) => (
            <li key={l.id}>
              {l.name ?? 'Unnamed link'} <span className={`badge ${l.active ? 'ok' : 'muted'}`}>{l.active ? 'active' : 'inactive'}</span>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
