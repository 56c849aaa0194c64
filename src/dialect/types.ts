// The block model of the Space API, as the service sends it in JSON (space-api.md "Resources",
// service-behaviour.md "Blocks as JSON"). Keys whose value is the default are omitted on the wire.

export type BlockType =
  | 'text' | 'page' | 'collectionItem' | 'image' | 'video' | 'file' | 'drawing'
  | 'whiteboard' | 'table' | 'collection' | 'code' | 'richUrl' | 'line';

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

export const CODE_LANGUAGES = [
  'ada', 'bash', 'cpp', 'cs', 'css', 'dart', 'dockerfile', 'matlab', 'go', 'groovy', 'haskell', 'html',
  'java', 'javascript', 'json', 'julia', 'kotlin', 'lua', 'markdown', 'mermaid', 'objectivec', 'perl',
  'php', 'prolog', 'plaintext', 'python', 'r', 'ruby', 'rust', 'scala', 'shell', 'sql', 'swift',
  'typescript', 'vbnet', 'xml', 'yaml', 'math_formula', 'other',
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
export type NewBlock = Omit<Block, 'id' | 'content' | 'metadata'> & { content?: NewBlock[] };
