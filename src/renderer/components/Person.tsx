import type { UserVM } from '../../shared/contract';

/** Initials instead of the user's photo: the window loads no remote content. */
export function Person({ user }: { user: UserVM | null }) {
  const name = user?.displayName || 'Unknown';
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
  return (
    <span className="person" title={user?.email ?? name}>
      <span className="avatar" aria-hidden="true">
        {initials || '?'}
      </span>
      <span className="person-name">{name}</span>
    </span>
  );
}
