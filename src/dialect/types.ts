// The block model of the Space API, as the service sends it in JSON (docs/api.md "Resources",
// docs/api.md "Blocks as JSON"). Keys whose value is the default are omitted on the wire.

/** Every block type of the service; each has its traits (blockTraits.ts) and its renderer (RENDER_HANDLERS in renderBlocks.ts). */
export const BLOCK_TYPES = [
  'text',
  'page',
  'collectionItem',
  'image',
  'video',
  'file',
  'drawing',
  'whiteboard',
  'table',
  'collection',
  'code',
  'richUrl',
  'line',
] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export type TextStyle = 'card' | 'page' | 'h1' | 'h2' | 'h3' | 'h4' | 'caption' | 'body';
export type ListStyle = 'none' | 'bullet' | 'numbered' | 'toggle' | 'task';
export type TextAlignment = 'left' | 'center' | 'right' | 'justify';
export type Font = 'system' | 'serif' | 'rounded' | 'mono';
export type CardLayout = 'small' | 'square' | 'regular' | 'large';
export type LineStyle = 'strong' | 'regular' | 'light' | 'extraLight' | 'pageBreak';
export type Decoration = 'callout' | 'quote';
export type TaskState = 'todo' | 'done' | 'canceled';
export type MediaPreview = 'fit' | 'fill';
export type MediaWidth = 'auto' | 'fullWidth';
export type AttachmentSize = 'small' | 'regular' | 'card';

// The card layouts of the block model, as a runtime list.
export const CARD_LAYOUTS: readonly CardLayout[] = ['small', 'square', 'regular', 'large'];

export const CODE_LANGUAGES = [
  'ada',
  'bash',
  'cpp',
  'cs',
  'css',
  'dart',
  'dockerfile',
  'matlab',
  'go',
  'groovy',
  'haskell',
  'html',
  'java',
  'javascript',
  'json',
  'julia',
  'kotlin',
  'lua',
  'markdown',
  'mermaid',
  'objectivec',
  'perl',
  'php',
  'prolog',
  'plaintext',
  'python',
  'r',
  'ruby',
  'rust',
  'scala',
  'shell',
  'sql',
  'swift',
  'typescript',
  'vbnet',
  'xml',
  'yaml',
  'math_formula',
  'other',
] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

export interface TaskInfo {
  state: TaskState;
  scheduleDate?: string;
  deadlineDate?: string;
  completedAt?: string;
  canceledAt?: string;
}

export interface BlockMetadata {
  createdAt?: string;
  lastModifiedAt?: string;
  createdBy?: string;
  lastModifiedBy?: string;
  comments?: unknown[];
  clickableLink?: string;
}

/** A block as the service returns it from `GET /blocks` (JSON). */
export interface Block {
  id: string;
  type: BlockType;
  /** The block's own markdown, prefixes included (`# `, `- [ ] `, two spaces per level…). Pages: the bare title. */
  markdown?: string;
  /** Children: only page, card (text with textStyle card) and text blocks that became pages have them. Absent with maxDepth=0. */
  content?: Block[];
  textStyle?: TextStyle;
  listStyle?: ListStyle;
  indentationLevel?: number;
  textAlignment?: TextAlignment;
  font?: Font;
  color?: string;
  decorations?: Decoration[];
  taskInfo?: TaskInfo;
  cardLayout?: CardLayout;
  lineStyle?: LineStyle;
  language?: CodeLanguage;
  rawCode?: string;
  url?: string;
  altText?: string;
  fileName?: string;
  title?: string;
  description?: string;
  preview?: MediaPreview;
  width?: MediaWidth;
  size?: AttachmentSize;
  /** collectionItem only. */
  properties?: Record<string, unknown>;
  metadata?: BlockMetadata;
}

/** A block to create (`POST /blocks`): no id yet; children nested the same way. */
/**
 * The fields a block may carry besides `id`, `type`, `markdown`, `content` and `metadata`, in the
 * order the live service writes them (recorded responses: `id, type, textStyle, cardLayout,
 * markdown`; `id, type, language, rawCode, markdown`; `taskInfo` before `listStyle`;
 * `textAlignment`, `font`, `decorations` before `color`; `url, title, description` of a rich URL;
 * docs/api.md "Blocks as JSON"). The type check below fails when
 * Block gains a field this list does not name: what reads blocks knows every field from here.
 */
export const BLOCK_FIELDS = [
  'textStyle',
  'cardLayout',
  'indentationLevel',
  'taskInfo',
  'listStyle',
  'lineStyle',
  'language',
  'rawCode',
  'url',
  'altText',
  'fileName',
  'title',
  'description',
  'preview',
  'width',
  'size',
  'properties',
  'textAlignment',
  'font',
  'decorations',
  'color',
] as const satisfies ReadonlyArray<keyof Block>;
type UnlistedBlockField = Exclude<keyof Block, (typeof BLOCK_FIELDS)[number] | 'id' | 'type' | 'markdown' | 'content' | 'metadata'>;
/** Compiles only while every field of Block is listed above (or is one of the five named there). */
export const BLOCK_FIELDS_COVER_BLOCK: [UnlistedBlockField] extends [never] ? true : UnlistedBlockField = true;

export type NewBlock = Omit<Block, 'id' | 'content' | 'metadata'> & { content?: NewBlock[] };

/** One block's `markdown` read into structured fields (parseBlockMarkdown); defaults omitted. */
export interface ParsedBlock {
  type: BlockType;
  /** Inline text without the block's prefixes, normalised. Pages and cards: the title. Code: the source. Tables: the pipe table. */
  body: string;
  textStyle?: TextStyle;
  listStyle?: ListStyle;
  indentationLevel?: number;
  decorations?: Decoration[];
  taskInfo?: { state: TaskState; scheduleDate?: string; deadlineDate?: string };
  lineStyle?: LineStyle;
  language?: CodeLanguage;
  rawCode?: string;
  url?: string;
  altText?: string;
  fileName?: string;
  title?: string;
  /** Pages and cards only. */
  cardLayout?: CardLayout;
}

/** A block of a split insert; pages and cards carry the blocks of their `<content>`. */
export type ParsedBlockNode = ParsedBlock & { children?: ParsedBlockNode[] };

/**
 * What renderBlockMarkdown reads: parsed fields, or a block as the service sends it (then `body`
 * may be absent and `markdown`/`title`/`rawCode` stand in). Collections render from `content`.
 */
export type BlockFields = Partial<Omit<Block, 'id' | 'content' | 'taskInfo' | 'type'>> & {
  type?: BlockType;
  body?: string;
  taskInfo?: { state: TaskState } | TaskInfo;
  content?: ReadonlyArray<Partial<Block>>;
  /** A collection read without its items (the depth limit): their preview, shown in `<itemsPreview>`. Output-only. */
  itemsPreviewMd?: string;
};

/**
 * One block of a file, as segmentFile cut it. Offsets are UTF-16 string offsets (JavaScript string
 * indices) into the text given to segmentFile, not byte offsets; `text` is `source.slice(start, end)`.
 */
export interface Segment {
  start: number;
  end: number;
  /** The exact slice of the file this segment covers. For pages and cards it includes the children. */
  text: string;
  /**
   * The block's `markdown` field as this file states it (wrapper indentation removed, CRLF as LF,
   * the `<callout>` of a multi-block callout put around it). Compare with markdownEquals. Pages and cards: the title.
   */
  markdown: string;
  kind: 'block' | 'page' | 'card' | 'readonly';
  /** Nesting depth in page/card wrappers: 0 for the file's top-level blocks. */
  depth: number;
  /** Indentation level (0..5) of the block, from its leading spaces. */
  level: number;
  /** Wrapper attributes of a page or card (`cardLayout`, `textStyle`, an `id` pasted from a rendering…). */
  attrs?: Record<string, string>;
  /** True when the block sits inside a `<callout>` that wraps several blocks (the tags are in the separators). */
  inCallout?: boolean;
  /** Columns of wrapper indentation its continuation lines carry in the file (a page at level n adds 2n); 0 at top level. */
  indent: number;
  /** Pages and cards: the bytes from the wrapper start to the first child region (`<page>`, `<pageTitle>`, `<content>`). */
  open?: string;
  /** Pages and cards: the bytes from `</content>` (or `</page>`) to the wrapper end. */
  close?: string;
  /** Pages and cards: the bytes around the children; `separators.length === children.length + 1`. */
  separators?: string[];
  children: Segment[];
}

/** A file cut into front matter and block segments, which put back together give the file byte for byte. */
export interface FileSegments {
  frontMatter: {
    raw: string;
    start: number;
    end: number;
    data?: Record<string, unknown>;
    /** Why the YAML could not be read; the raw text is still kept. */
    error?: string;
  } | null;
  segments: Segment[];
  /** The bytes before, between and after the top-level segments; `separators.length === segments.length + 1`. */
  separators: string[];
}
