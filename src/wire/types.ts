// The request and response types of every endpoint of docs/api.md, as they travel on the wire
// (shapes per docs/api.md where the contract is silent). Blocks use the dialect's model.
import type { Block, NewBlock, TaskInfo, TaskState } from '../dialect/types.js';

export type { Block, NewBlock } from '../dialect/types.js';

/** `YYYY-MM-DD`, or relative to the space's today. */
export type DateInput = string | 'today' | 'tomorrow' | 'yesterday';

/** Where inserted blocks, moved blocks, new collections and whiteboards go: exactly one form. */
export type Position =
  { position: 'start' | 'end'; pageId: string } | { position: 'start' | 'end'; date?: DateInput } | { position: 'before' | 'after'; siblingId: string };

export interface Items<T> {
  items: T[];
}

// ---- blocks
export type GetBlocksQuery = ({ id: string; date?: never } | { date: DateInput; id?: never }) & {
  /** -1 (default) all descendants, 0 only the block, 1 direct children. */
  maxDepth?: number;
  fetchMetadata?: boolean;
};
export type CreateBlocksInput = ({ blocks: NewBlock[]; markdown?: never } | { markdown: string; blocks?: never }) & { position: Position };
/** Only the fields sent change; `type` cannot. */
export type BlockUpdate = { id: string } & Partial<Omit<Block, 'id' | 'type' | 'content' | 'metadata'>>;
export interface IdItem {
  id: string;
}
export interface SearchBlocksQuery {
  blockId: string;
  /** RE2-compatible. */
  pattern: string;
  caseSensitive?: boolean;
  beforeBlockCount?: number;
  afterBlockCount?: number;
  fetchBlocks?: boolean;
}
export interface BlockSearchHit {
  blockId: string;
  markdown: string;
  pageBlockPath: Array<{ id: string; content: string }>;
  beforeBlocks: Array<{ blockId: string; markdown: string }>;
  afterBlocks: Array<{ blockId: string; markdown: string }>;
}

// ---- documents
/** The built-in locations a document listing can filter by (`location=`). */
export const LOCATIONS = ['unsorted', 'trash', 'templates', 'daily_notes'] as const;
export type Location = (typeof LOCATIONS)[number];
export interface DateFilters {
  createdDateGte?: DateInput;
  createdDateLte?: DateInput;
  lastModifiedDateGte?: DateInput;
  lastModifiedDateLte?: DateInput;
  dailyNoteDateGte?: DateInput;
  dailyNoteDateLte?: DateInput;
}
export type ListDocumentsQuery = DateFilters & {
  /** Cannot be combined with folderId. */
  location?: Location;
  folderId?: string;
  fetchMetadata?: boolean;
};
export interface DocumentListItem {
  id: string;
  title: string;
  dailyNoteDate?: string;
  lastModifiedAt?: string;
  createdAt?: string;
  clickableLink?: string;
}
/** Where documents go: a built-in location or a folder (never trash). */
export type DocumentDestination = { destination: 'unsorted' | 'templates' } | { folderId: string };
export interface CreateDocumentsInput {
  documents: Array<{ title: string }>;
  destination?: DocumentDestination;
}
export interface CreatedDocument {
  id: string;
  title: string;
  clickableLink?: string;
}
export interface MovedDocument {
  id: string;
  destination: DocumentDestination;
}
export type SearchDocumentsQuery = DateFilters & {
  include?: string | string[];
  /** RE2-compatible patterns. */
  regexps?: string | string[];
  documentIds?: string | string[];
  fetchBlocks?: boolean;
  location?: Location;
  folderIds?: string | string[];
};
export interface DocumentSearchHit {
  documentId: string;
  markdown: string;
  blockIds: string[];
  blocks?: Block[];
}

// ---- folders
export interface Folder {
  id: string;
  name: string;
  documentCount?: number;
  folders?: Folder[];
  parentFolderId?: string;
}
export interface CreatedFolder {
  id: string;
  name: string;
  parentFolderId?: string;
}
export type FolderDestination = 'root' | { parentFolderId: string };
export interface MovedFolder {
  id: string;
  destination: FolderDestination;
}

// ---- connection
export interface ConnectionInfo {
  space: { id: string; name: string; timezone: string; time: string; friendlyDate: string };
  utc: { time: string };
  urlTemplates?: { app?: string };
}

// ---- tasks
export type TaskScope = 'active' | 'upcoming' | 'inbox' | 'logbook' | 'document' | 'all';
export type TaskLocation = { type: 'inbox' } | { type: 'dailyNote'; date?: DateInput } | { type: 'document'; documentId: string; title?: string };
export interface Task {
  id: string;
  markdown: string;
  taskInfo: TaskInfo;
  location?: TaskLocation;
  completedAt?: string;
  canceledAt?: string;
}
export interface NewTask {
  markdown: string;
  taskInfo?: { scheduleDate?: DateInput; deadlineDate?: DateInput };
  location: TaskLocation;
}
export interface TaskUpdate {
  id: string;
  markdown?: string;
  /** A date set to null is cleared. */
  taskInfo?: { state?: TaskState; scheduleDate?: DateInput | null; deadlineDate?: DateInput | null };
  location?: TaskLocation;
}

// ---- collections
export interface CollectionListItem {
  id: string;
  name: string;
  itemCount: number;
  documentId: string;
}
export interface SchemaProperty {
  key?: string;
  name: string;
  type: string;
  options?: Array<{ name: string; color?: string }>;
}
export interface CollectionSchemaInput {
  name: string;
  contentPropDetails: { name: string };
  properties: SchemaProperty[];
}
/** The read format (`format=schema`). */
export interface CollectionSchema {
  key: string;
  name: string;
  contentPropDetails: { key: string; name: string };
  properties: Array<{ key: string; name: string; type: string; options?: unknown[] }>;
  propertyDetails?: unknown[];
}
export interface CollectionSchemaResult {
  collectionBlockId: string;
  name?: string;
  schema: CollectionSchemaInput & { contentPropDetails: { key?: string; name: string } };
}
export interface CollectionItem {
  id: string;
  title: string;
  properties: Record<string, unknown>;
  content?: Block[];
}
export interface PropertyRef {
  propertyId: string;
  propertyKey: string;
  propertyName: string;
}
export interface CollectionView {
  id: string;
  name: string;
  type: 'table' | 'gallery' | 'kanban';
  filters?: Array<PropertyRef & { filterType: string; filterValue: unknown[] }>;
  sortBy?: Array<PropertyRef & { ascending: boolean }>;
  groupBy?: Array<PropertyRef & { ascending: boolean }>;
  hiddenProperties?: PropertyRef[];
  customPropertyOrder?: PropertyRef[];
  columnWidth?: Record<string, string>;
  calculations?: Record<string, PropertyRef & { type: string }>;
  isCalculationsRowVisible?: boolean;
  kanban?: { columnOrder: string[]; hiddenGroupValues: string[]; showsColumnColors: boolean; visibleFields: PropertyRef[] };
  gallery?: { cardSize: string; previewType: string; visibleFields: PropertyRef[] };
  isActive?: boolean;
}
export interface CollectionViews {
  collectionBlockId: string;
  activeViewId?: string;
  views: CollectionView[];
}
/** In input, filter, sort and group entries name the column by its key in `property`. */
export interface CollectionViewInput {
  name?: string;
  type?: 'table' | 'gallery' | 'kanban';
  filters?: Array<{ property: string; filterType: string; filterValue: unknown[] }>;
  sortBy?: Array<{ property: string; ascending: boolean }>;
  groupBy?: Array<{ property: string; ascending?: boolean }>;
  fields?: { order?: string[]; hidden?: string[]; widths?: Record<string, string> };
  calculations?: Record<string, string>;
  isCalculationsRowVisible?: boolean;
  kanban?: Record<string, unknown>;
  gallery?: Record<string, unknown>;
}

// ---- reminders
export type ReminderStatus = 'incomplete' | 'completed' | 'upcoming' | 'all';
export interface Reminder {
  id: string;
  blockId: string;
  title: string;
  remindAt?: string;
  isCompleted: boolean;
  completedAt?: string;
}
export interface ReminderPage {
  items: Reminder[];
  pagination?: { cursor?: string | null };
}

// ---- upload
export type UploadTarget =
  | { position: 'start' | 'end'; pageId: string; date?: never; siblingId?: never }
  | { position: 'start' | 'end'; date: DateInput; pageId?: never; siblingId?: never }
  | { position: 'before' | 'after'; siblingId: string; pageId?: never; date?: never };

// ---- whiteboards
export interface WhiteboardElement {
  id?: string;
  type?: string;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  text?: string;
  points?: number[][];
  [extra: string]: unknown;
}
export interface WhiteboardContent {
  elements: WhiteboardElement[];
  assets?: Record<string, unknown>;
  appState?: Record<string, unknown>;
}
