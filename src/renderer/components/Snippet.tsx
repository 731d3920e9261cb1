import type { SnippetPartVM } from '../../shared/contract';

/** A search snippet with the matched words marked. */
export function Snippet({ parts }: { parts: SnippetPartVM[] }) {
  return (
    <span className="snippet">
      {parts.map((p, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet have no identity but their order.
        p.match ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>,
      )}
    </span>
  );
}
