// Types for the `commonmark-spec` package (the CommonMark examples the segmenter is tested on).
declare module 'commonmark-spec' {
  export const text: string;
  export const tests: Array<{ markdown: string; html: string; section: string; number: number }>;
  const spec: { text: string; tests: typeof tests };
  export default spec;
}
