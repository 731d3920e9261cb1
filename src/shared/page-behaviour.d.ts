/** Types of page-behaviour.js (plain JavaScript, served as it is by the preview). `root` is a DOM element. */
export interface PageBehaviourOptions {
  /** GitBook's search button was pressed, with its preset query ('' for none). */
  onSearch?(query: string): void;
}
export function preparePage(root: unknown): void;
export function enhancePage(root: unknown, options?: PageBehaviourOptions): () => void;
