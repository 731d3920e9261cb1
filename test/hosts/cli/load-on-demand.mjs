// Preloaded into a `quire` process by load-on-demand.test.ts (node --import): the Node modules it
// loaded, and the files it required from outside its bundle, written to stderr as it exits.
import { createRequire } from 'node:module';

const required = createRequire(import.meta.url).cache;
process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
  process.stderr.write(`QUIRE_MODULES ${JSON.stringify(builtins)}\n`);
  process.stderr.write(`QUIRE_FILES ${JSON.stringify(Object.keys(required))}\n`);
});
