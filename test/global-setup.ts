/**
 * Once before the integration project's files: bundles the `quire` command when a source is
 * newer than the bundle, so the files that run it as a process (in parallel) find it built and
 * none of them rebuilds it while another runs it.
 */
import { buildCli } from './helpers/cli-process';

export default function setup(): void {
  buildCli();
}
