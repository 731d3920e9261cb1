/**
 * `npm run demo:sync [-- --dry-run | --serve] [folder]`: the main job without an account, on the
 * sample API (scripts/sample-api.ts says what each form does). Ctrl-C stops it.
 */
import { processIo } from '../src/main/hosts/cli/io';
import { demoSync } from './sample-api';

const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
process.exitCode = await demoSync(process.argv.slice(2), processIo(stop.signal));
