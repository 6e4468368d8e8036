/**
 * A file's functions as Step 0 finds them before any model call (syntax tree, or the regex fallback):
 * the inventory the app hands the engine, Step 2 reconciles against, and `skeptic plan` prints.
 */
export type Visibility = 'public' | 'internal' | 'private';

export interface CodeFunction {
  /** `Class.method`, `outer.inner`; a repeated name (overloads, `#ifdef` branches) gets `#2`, `#3`, … */
  qualified_name: string;
  /** function, method, constructor, accessor, arrow_function, lambda, closure */
  kind: string;
  visibility: Visibility;
  /** 1-based, inclusive; the start includes the leading doc comment, decorators, attributes and template headers. */
  start_line: number;
  end_line: number;
  /** The line of the definition itself, below its doc comment and decorators (the syntax finder's; else `start_line`). */
  signature_line?: number;
}

export interface FunctionInventory {
  /** `syntax`: exact ranges from the parser; `regex`: top-level declarations, each ending where the next starts. */
  parser: 'syntax' | 'regex';
  functions: CodeFunction[];
}
