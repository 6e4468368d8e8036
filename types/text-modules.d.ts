// Prompt files are bundled as text by esbuild's `text` loader (see esbuild.mjs).
declare module '*.md' {
  const text: string;
  export default text;
}
