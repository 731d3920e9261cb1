/**
 * The authorities a user trusts through NODE_EXTRA_CA_CERTS are trusted by the installed
 * command's HTTPS, though its launcher keeps Node from reading them as it starts (Node 20 parses
 * them at every start: core/api/extra-ca-certs.ts). `quire` runs as a shell runs it, through its
 * first line, against the fake behind TLS whose certificate a test authority signed.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { CLI } from '../../bench/cli-process';
import { tempDir } from '../../helpers/cli';
import { buildCli } from '../../helpers/cli-process';
import { seedGuide } from '../../helpers/sync';

const TLS = fileURLToPath(new URL('../../fixtures/tls/', import.meta.url));
const TEST_AUTHORITY = join(TLS, 'ca.pem');

let fake: FakeApi;
let tlsFront: Server;
let api: string;

/** `quire <args>` executed as a file (its first line applies), with `env` over a copy of this process's without NODE_EXTRA_CA_CERTS. */
function quire(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  const base: NodeJS.ProcessEnv = { ...process.env, QUIRE_TOKEN: fake.token };
  delete base.NODE_EXTRA_CA_CERTS;
  const child = spawn(CLI, args, { env: { ...base, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

beforeAll(async () => {
  buildCli();
  fake = await startFakeApi();
  seedGuide(fake);
  const upstream = new URL(fake.url);
  // TLS in front of the fake: each connection's bytes, decrypted, go to it as they are.
  tlsFront = createServer({ key: readFileSync(join(TLS, 'server-key.pem')), cert: readFileSync(join(TLS, 'server-cert.pem')) }, (socket) => {
    const plain = connect(Number(upstream.port), upstream.hostname);
    socket.pipe(plain).pipe(socket);
    socket.on('error', () => plain.destroy());
    plain.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => tlsFront.listen(0, '127.0.0.1', resolve));
  const { port } = tlsFront.address() as { port: number };
  api = `https://localhost:${port}${upstream.pathname.replace(/\/$/, '')}`;
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => tlsFront.close(resolve));
  await fake.close();
});

it.skipIf(process.platform === 'win32')(
  'syncs over HTTPS from a server whose authority only NODE_EXTRA_CA_CERTS names',
  async () => {
    const { code, stderr } = await quire(['sync', '--api', api, '--dir', tempDir(), '--once'], { NODE_EXTRA_CA_CERTS: TEST_AUTHORITY });
    expect(stderr).not.toMatch(/certificate|warning/i);
    expect(code).toBe(0);
    expect(fake.requests.length).toBeGreaterThan(0);
  },
  60_000,
);

it.skipIf(process.platform === 'win32')(
  'without it, the same server is refused at once, with what to do',
  async () => {
    const { code, stderr } = await quire(['sync', '--api', api, '--dir', tempDir(), '--once'], {});
    expect(code).not.toBe(0);
    expect(stderr).toContain(
      `${new URL(api).origin} was not trusted: unable to verify the first certificate (UNABLE_TO_VERIFY_LEAF_SIGNATURE); nothing was sent.`,
    );
    expect(stderr).toContain('set NODE_EXTRA_CA_CERTS');
    expect(stderr).not.toMatch(/retrying/);
  },
  60_000,
);

it.skipIf(process.platform === 'win32')(
  'a command that connects to nothing does not read the file at all',
  async () => {
    // Node reading it at start would warn that it could not (it does, run as `node bin/quire.cjs`).
    const missing = join(tempDir(), 'no-such-authority.pem');
    expect(await quire(['--version'], { NODE_EXTRA_CA_CERTS: missing })).toEqual({ code: 0, stderr: '' });
    const { stderr } = await quire(['sync', '--api', api, '--dir', tempDir(), '--once'], { NODE_EXTRA_CA_CERTS: missing });
    expect(stderr).toContain(`Ignoring extra certs from \`${missing}\``);
  },
  60_000,
);
