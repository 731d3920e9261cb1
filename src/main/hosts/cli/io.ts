/** Where a command writes: injectable so tests can run commands in-process. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  readStdin: () => Promise<string>;
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
}

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, error: 1, usage: 2, conflicts: 3 } as const;

/** The real process's streams and environment. */
export function processIo(signal: AbortSignal = new AbortController().signal, env: NodeJS.ProcessEnv = process.env): CliIo {
  return {
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
    env,
    signal,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}
