import { useState, type FormEvent } from 'react';
import type { SessionVM } from '../../shared/contract';
import { useAction } from '../hooks/use-query';
import { ErrorNotice } from '../components/ErrorNotice';

/** API address and a token pasted once; the host checks it with GET /user and keeps it in the OS keychain. */
export function SignInView({ session }: { session: SessionVM }) {
  const [apiUrl, setApiUrl] = useState(session.apiUrl);
  const [token, setToken] = useState('');
  const action = useAction();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const result = await action.run('session.signIn', { apiUrl: apiUrl.trim(), token: token.trim() });
    if (result) setToken('');
  };

  return (
    <main className="signin" aria-labelledby="signin-title">
      <form onSubmit={(e) => void submit(e)} className="card">
        <h1 id="signin-title">Sign in to Quire</h1>
        <p className="muted">
          Quire keeps your docs in a folder on this computer and in sync with the API. Paste an API token once; it is checked and stored in your system
          keychain, never in a file.
        </p>
        {session.reason && (
          <div className="notice warn" role="status">
            {session.reason}
          </div>
        )}
        {session.keychain === 'unavailable' && (
          <div className="notice warn" role="status">
            The system keychain is not available, so the token will only be kept until Quire stops.
          </div>
        )}
        <label>
          API address
          <input type="url" required value={apiUrl} onChange={(e) => setApiUrl(e.target.value)} autoComplete="url" spellCheck={false} />
        </label>
        <label>
          API token
          <input
            type="password"
            required
            value={token}
            onChange={(e) => setToken(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            // biome-ignore lint/a11y/noAutofocus: pasting the token is the only thing this screen is for.
            autoFocus
            placeholder="Paste your token"
          />
        </label>
        <ErrorNotice error={action.error} onDismiss={action.clearError} />
        <button type="submit" className="primary" disabled={action.busy || !token.trim()}>
          {action.busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
