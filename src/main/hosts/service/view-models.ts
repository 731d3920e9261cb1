import type { UserVM } from '../../../shared/contract';

export function toUserVM(u: { id: string; displayName?: string; email?: string; photoURL?: string }): UserVM {
  return { id: u.id, displayName: u.displayName || u.email || u.id, ...(u.email ? { email: u.email } : {}) };
}

export const person = (p: { id: string; displayName: string } | null): UserVM | null => (p ? { id: p.id, displayName: p.displayName } : null);

/** The API gives emoji as code points in hex (`1f4d8`, `1f468-200d-1f4bb`); the window wants the characters. */
export function emojiText(raw: string | null): string | null {
  if (!raw) return null;
  if (!/^[0-9a-f]{2,6}(-[0-9a-f]{2,6})*$/i.test(raw)) return raw;
  try {
    return String.fromCodePoint(...raw.split('-').map((h) => parseInt(h, 16)));
  } catch {
    return null;
  }
}
