/** `quire preview`: the folder rendered as GitBook renders it, on 127.0.0.1, with live reload. */
export { type PreviewOptions, type PreviewServer, startPreview } from './server';
