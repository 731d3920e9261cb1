/**
 * Quire's version, from package.json. The bundle (scripts/build-cli.mjs) inlines it at build
 * time, so `quire --version` reads no file.
 */
import { version } from '../../../../package.json';

export const VERSION: string = version;
