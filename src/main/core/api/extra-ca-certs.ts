/**
 * The certificate authorities a user adds through NODE_EXTRA_CA_CERTS (a company's proxy, a
 * private server), trusted by Quire's HTTPS connections without Node parsing them at every start.
 *
 * Node 20 reads and parses that file, and its own bundled roots with it, as each process starts,
 * whether or not the process ever connects: ~55 ms with a system bundle of ~140 certificates
 * (https://github.com/nodejs/node/issues/40524; later Node versions load them lazily). The `quire`
 * launcher's first line moves the variable to QUIRE_EXTRA_CA_CERTS and leaves NODE_EXTRA_CA_CERTS
 * empty, so Node skips it; the first HTTPS connection reads the file here and adds its
 * certificates to Node's default roots, as Node would have. A process Node starts with the
 * variable as it is (the desktop app, the web host, `node bin/quire.cjs`) has it read by Node.
 */
import { readFileSync } from 'node:fs';
import type { SecureContext } from 'node:tls';

/** Where the launcher puts NODE_EXTRA_CA_CERTS's value (bin/quire.cjs, first line). */
const DEFERRED_EXTRA_CA_CERTS = 'QUIRE_EXTRA_CA_CERTS';

/** A SecureContext for HTTPS that trusts Node's default roots and the deferred file's authorities; undefined when none was deferred. */
export function secureContextWithDeferredCas(env: NodeJS.ProcessEnv = process.env): SecureContext | undefined {
  const file = env[DEFERRED_EXTRA_CA_CERTS];
  if (!file) return undefined;
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (err) {
    // Node's own words and behaviour for a file it cannot read: a warning, and the default roots.
    process.emitWarning(`Ignoring extra certs from \`${file}\`, load failed: ${(err as Error).message}`);
    return undefined;
  }
  const context = process.getBuiltinModule('node:tls').createSecureContext();
  // The native context's addCACert is what Node's own `ca` option and NODE_EXTRA_CA_CERTS use; on
  // a context holding the default roots it adds to a copy of them, never to other connections'.
  (context as SecureContext & { context: { addCACert(pem: string): void } }).context.addCACert(pem);
  return context;
}
