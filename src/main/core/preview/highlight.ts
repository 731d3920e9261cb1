/**
 * Syntax highlighting for the preview's code blocks, with highlight.js.
 *
 * Why highlight.js (and not Shiki, which GitBook itself uses): it is synchronous, so it fits
 * markdown-it's `highlight` hook and keeps the renderer a pure function (Shiki's grammars load
 * asynchronously); it writes classes (`hljs-keyword`), never inline styles, so the preview's and
 * the app's CSP keep `style-src 'self'` and one stylesheet themes light and dark; and each
 * language is its own small module, loaded the first time a page uses it (the core costs a
 * few milliseconds; all 193 languages at once would cost half a second).
 *
 * A fence's language is looked up by name or alias (the table below is highlight.js's own,
 * checked against it by test/preview/highlight.test.ts); an unknown one is shown as plain text.
 */
import { createRequire } from 'node:module';

type HLJS = typeof import('highlight.js').default;
type LanguageFn = Parameters<HLJS['registerLanguage']>[1];

const load = createRequire(import.meta.url);
let core: HLJS | null = null;
const tried = new Map<string, boolean>();

function hljs(): HLJS {
  core ??= load('highlight.js/lib/core') as HLJS;
  return core;
}

/** Loads highlight.js's core now (each language still waits for the first page that uses it). */
export function preloadHighlighter(): void {
  hljs();
}

/** highlight.js's aliases, each with the module that defines it (generated from highlight.js; its test keeps it current). */
export const LANGUAGE_ALIASES: Readonly<Record<string, string>> = {
  ado: 'stata',
  adoc: 'asciidoc',
  ahk: 'autohotkey',
  apacheconf: 'apache',
  arm: 'armasm',
  as: 'actionscript',
  asc: 'angelscript',
  atom: 'xml',
  bat: 'dos',
  batch: 'dos',
  bf: 'brainfuck',
  bind: 'dns',
  'c#': 'csharp',
  'c++': 'cpp',
  capnp: 'capnproto',
  cc: 'cpp',
  cjs: 'javascript',
  clj: 'clojure',
  cls: 'cos',
  'cmake.in': 'cmake',
  cmd: 'dos',
  coffee: 'coffeescript',
  console: 'shell',
  cr: 'crystal',
  craftcms: 'twig',
  crm: 'crmsh',
  cs: 'csharp',
  cson: 'coffeescript',
  cts: 'typescript',
  cxx: 'cpp',
  dcl: 'clean',
  desktop: 'freedesktop',
  dfm: 'delphi',
  do: 'stata',
  docker: 'dockerfile',
  dpr: 'delphi',
  dst: 'dust',
  edn: 'clojure',
  erl: 'erlang',
  ex: 'elixir',
  exs: 'elixir',
  'f#': 'fsharp',
  f90: 'fortran',
  f95: 'fortran',
  feature: 'gherkin',
  fs: 'fsharp',
  gemspec: 'ruby',
  gms: 'gams',
  golang: 'go',
  gql: 'graphql',
  graph: 'roboconf',
  gss: 'gauss',
  gyp: 'python',
  h: 'c',
  'h++': 'cpp',
  hbs: 'handlebars',
  hh: 'cpp',
  hpp: 'cpp',
  hs: 'haskell',
  html: 'xml',
  'html.handlebars': 'handlebars',
  'html.hbs': 'handlebars',
  htmlbars: 'handlebars',
  https: 'http',
  hx: 'haxe',
  hxx: 'cpp',
  hylang: 'hy',
  i7: 'inform7',
  iced: 'coffeescript',
  icl: 'clean',
  ino: 'arduino',
  instances: 'roboconf',
  ipython: 'python',
  irb: 'ruby',
  jinja: 'django',
  jldoctest: 'julia-repl',
  js: 'javascript',
  json5: 'json',
  jsonc: 'json',
  jsp: 'java',
  jsx: 'javascript',
  k: 'q',
  kdb: 'q',
  kt: 'kotlin',
  ktm: 'kotlin',
  kts: 'kotlin',
  ktx: 'kotlin',
  lassoscript: 'lasso',
  ls: 'lasso',
  m: 'mercury',
  mak: 'makefile',
  make: 'makefile',
  md: 'markdown',
  mikrotik: 'routeros',
  mips: 'mipsasm',
  mjs: 'javascript',
  mk: 'makefile',
  mkd: 'markdown',
  mkdown: 'markdown',
  ml: 'ocaml',
  mm: 'objectivec',
  mma: 'mathematica',
  moo: 'mercury',
  moon: 'moonscript',
  mts: 'typescript',
  nc: 'gcode',
  nginxconf: 'nginx',
  nixos: 'nix',
  nt: 'nestedtext',
  'obj-c': 'objectivec',
  'obj-c++': 'objectivec',
  objc: 'objectivec',
  'objective-c++': 'objectivec',
  osascript: 'applescript',
  p21: 'step21',
  pas: 'delphi',
  pascal: 'delphi',
  patch: 'diff',
  pb: 'purebasic',
  pbi: 'purebasic',
  pcmk: 'crmsh',
  pde: 'processing',
  'pf.conf': 'pf',
  pl: 'perl',
  plist: 'xml',
  pluto: 'lua',
  pm: 'perl',
  podspec: 'ruby',
  postgres: 'pgsql',
  postgresql: 'pgsql',
  pp: 'puppet',
  proto: 'protobuf',
  ps: 'powershell',
  ps1: 'powershell',
  pwsh: 'powershell',
  py: 'python',
  pycon: 'python-repl',
  qt: 'qml',
  rb: 'ruby',
  re: 'reasonml',
  rs: 'rust',
  rss: 'xml',
  scad: 'openscad',
  sci: 'scilab',
  scm: 'scheme',
  sh: 'bash',
  shellsession: 'shell',
  st: 'smalltalk',
  stanfuncs: 'stan',
  step: 'step21',
  stp: 'step21',
  styl: 'stylus',
  sv: 'verilog',
  svg: 'xml',
  svh: 'verilog',
  systemd: 'freedesktop',
  tao: 'xl',
  tex: 'latex',
  text: 'plaintext',
  thor: 'ruby',
  tk: 'tcl',
  toml: 'ini',
  ts: 'typescript',
  tsx: 'typescript',
  txt: 'plaintext',
  v: 'verilog',
  vb: 'vbnet',
  vbs: 'vbscript',
  'wildfly-cli': 'jboss-cli',
  wl: 'mathematica',
  wsf: 'xml',
  'x++': 'axapta',
  xhtml: 'xml',
  xjb: 'xml',
  xls: 'excel',
  xlsx: 'excel',
  xpath: 'xquery',
  xq: 'xquery',
  xqm: 'xquery',
  xsd: 'xml',
  xsl: 'xml',
  yml: 'yaml',
  zep: 'zephir',
  zone: 'dns',
  zsh: 'bash',
};

/** Names writers use that highlight.js reads better as another language (`shell` commands as bash, not as a session with prompts). */
const EXTRA: Readonly<Record<string, string>> = { shell: 'bash', jsonc: 'json', json5: 'json' };

/** The highlight.js module name for a fence's language, or null when there is none. */
export function languageModule(lang: string): string | null {
  const name = lang.trim().toLowerCase();
  if (!/^[a-z0-9][a-z0-9+#._-]*$/.test(name)) return null;
  const module = EXTRA[name] ?? LANGUAGE_ALIASES[name] ?? name;
  return /^[a-z0-9_-]+$/.test(module) ? module : null;
}

/** Registers a language the first time it is asked for; false when highlight.js has no such language. */
function ensure(module: string): boolean {
  const known = tried.get(module);
  if (known !== undefined) return known;
  let ok = false;
  try {
    hljs().registerLanguage(module, load(`highlight.js/lib/languages/${module}`) as LanguageFn);
    ok = true;
  } catch {
    // not a language highlight.js has
  }
  tried.set(module, ok);
  return ok;
}

/** The code as highlighted HTML (classes only), or null when the language is unknown (the caller escapes it as text). */
export function highlightCode(code: string, lang: string): string | null {
  const module = languageModule(lang);
  if (module === null || module === 'plaintext' || !ensure(module)) return null;
  try {
    return hljs().highlight(code, { language: module, ignoreIllegals: true }).value;
  } catch {
    return null;
  }
}

/**
 * Splits highlighted HTML into lines, closing the spans open at each line's end and opening
 * them again on the next (a comment or string may span lines), so each line can be its own
 * element (line numbers). highlight.js writes only `<span class="…">`, `</span>` and escaped text.
 */
export function splitHighlightedLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  const tag = /<span[^>]*>|<\/span>|\n/g;
  let last = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    line += html.slice(last, m.index);
    last = tag.lastIndex;
    if (m[0] === '\n') {
      lines.push(line + '</span>'.repeat(open.length));
      line = open.join('');
    } else if (m[0] === '</span>') {
      open.pop();
      line += m[0];
    } else {
      open.push(m[0]);
      line += m[0];
    }
  }
  lines.push(line + html.slice(last));
  return lines;
}
