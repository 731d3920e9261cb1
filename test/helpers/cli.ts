import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/main/hosts/cli/run';
import { CliContext } from '../../src/main/hosts/cli/context';
import { MemoryTokenStore, type TokenStore } from '../../src/main/core/secrets';
import type { CliIo } from '../../src/main/hosts/cli/io';
import type { ApiClientOptions } from '../../src/main/core/api/client';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `quire <argv>` in-process with captured output. */
export async function quire(
  argv: string[],
  options: { env?: NodeJS.ProcessEnv; stdin?: string; tokens?: TokenStore; signal?: AbortSignal; api?: Partial<ApiClientOptions> } = {},
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    env: options.env ?? {},
    readStdin: async () => options.stdin ?? '',
    signal: options.signal ?? new AbortController().signal,
  };
  const code = await runCli(argv, io, new CliContext(io, options.tokens ?? new MemoryTokenStore(), options.api ?? { maxAttempts: 2 }));
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

export function tempDir(prefix = 'quire-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
