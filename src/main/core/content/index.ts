/**
 * The GitBook page format, pure (no I/O): a page file (YAML frontmatter, `# Title`, body),
 * how two page files compare, SUMMARY.md, the kinds of pages a space holds, the references a
 * page holds (links, images, blocks) and how they map to relative paths, and its `{% %}` blocks;
 * a node of a space folder's tree.
 */
export {
  API_META_KEYS,
  assemblePageFile,
  fitsHeading,
  frontmatterFor,
  MAX_FRONTMATTER_BYTES,
  MAX_FRONTMATTER_DEPTH,
  PageFileError,
  parsePageFile,
  parseYamlMapping,
  pickPageMeta,
  readPageFile,
  renderPageFile,
  significantMeta,
  type PageMeta,
} from './frontmatter';
export type { FolderNode } from './folder-node';
export { pageKind, type PageKind } from './page-kind';
export { canonicalPageText, pageTitleOf, samePageText } from './page-text';
export { parseSummary, renderSummary, type SummaryEntry, summaryLines } from './summary';
export {
  type Block,
  type BlockProblem,
  type BlockProblemKind,
  type BlockScan,
  type BlockSpec,
  BLOCKS_BY_NAME,
  endTagTarget,
  KNOWN_BLOCKS,
  scanBlocks,
} from './blocks';
export { type LinkTargets, toLocalLinks, toStableLinks } from './links';
export {
  decodePercent,
  encodeAnchor,
  findReferences,
  formatNewRef,
  formatIncludeRef,
  formatStableRef,
  hrefText,
  parseIncludeRef,
  parseNewRef,
  parseStableRef,
  type Reference,
  type ReferenceKind,
  ReferenceRewriteError,
  relativeHref,
  resolveRelativeHref,
  rewriteReferences,
  type StableRef,
} from './references';
export { MAX_PAGE_BYTES, utf8Length } from './limits';
export { type DocumentMarkdownOptions, documentToMarkdown } from './document-markdown';
export {
  evaluateExpression,
  expressionError,
  expressionText,
  type Scope,
  Unknown,
  type VariableRef,
  type Variables,
  type VariableValue,
  variablesNamed,
} from './expressions';
export {
  PAGE_VARIABLES_KEY,
  readVariablesFile,
  sameVariables,
  SPACE_VARIABLES_FILE,
  variablesOf,
  variablesYaml,
  type WrittenExpression,
  writtenExpressions,
} from './variables';
export { parseTag, type TagSyntax } from './tag-syntax';
export { firstDuplicateKey, gitbookYaml } from './frontmatter-yaml';
export { htmlBlockStart, isTagOnlyLine } from './line-syntax';
export { isIntegrationBlock } from './blocks';
export { lexMarkdown } from './markdown-lex';
