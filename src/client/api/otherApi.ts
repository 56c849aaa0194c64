// The connection, comments, reminders, tasks, uploads and whiteboards.
import { seg, type CallOptions, type Send } from '../apiCall.js';
import {
  check,
  checkAs,
  anyObject,
  connectionInfo,
  idStrings,
  objectItems,
  reminderPage,
  uploadResult,
  whiteboardContent,
  idItems,
  tasks,
} from '../schemas.js';
import type {
  ConnectionInfo,
  Items,
  Position,
  Reminder,
  ReminderPage,
  ReminderStatus,
  UploadTarget,
  WhiteboardContent,
  WhiteboardElement,
  IdItem,
  NewTask,
  Task,
  TaskScope,
  TaskUpdate,
} from '../../wire/types.js';

export interface OtherApi {
  /** `GET /connection`: the space, its time zone and the service's clock. A 404 here means the link is gone. */
  getConnection(options?: CallOptions): Promise<ConnectionInfo>;
  /** Experimental. */
  createComments(input: { comments: Array<{ blockId: string; content: string }> }, options?: CallOptions): Promise<Items<{ commentId: string }>>;
  /** Experimental; pages with `pagination.cursor` (reuse the same status). */
  listReminders(query?: { status?: ReminderStatus; limit?: number; cursor?: string }, options?: CallOptions): Promise<ReminderPage>;
  /** Sets or replaces the reminder of each block; without `remindAt` it is saved for later. */
  createReminders(input: { reminders: Array<{ blockId: string; remindAt?: string }> }, options?: CallOptions): Promise<Items<Reminder>>;
  /** `remindAt: null` clears the time. */
  updateReminders(
    input: { remindersToUpdate: Array<{ id: string; remindAt?: string | null; isCompleted?: boolean }> },
    options?: CallOptions,
  ): Promise<Items<Reminder>>;
  deleteReminders(input: { idsToDelete: string[] }, options?: CallOptions): Promise<Items<string>>;
  /** `POST /upload`: raw bytes; the content type decides the kind of block. */
  upload(
    data: Uint8Array,
    contentType: string,
    target: UploadTarget & { fileName?: string },
    options?: CallOptions,
  ): Promise<{ blockId: string; assetUrl: string }>;
  /** Experimental: a new empty whiteboard. */
  createWhiteboard(input: { position: Position }, options?: CallOptions): Promise<{ whiteboardBlockId: string }>;
  getWhiteboardElements(whiteboardBlockId: string, options?: CallOptions): Promise<WhiteboardContent>;
  /** At most 500 elements per request; appends. */
  addWhiteboardElements(whiteboardBlockId: string, input: { elements: WhiteboardElement[] }, options?: CallOptions): Promise<WhiteboardContent>;
  /** At most 500; only the given properties change. */
  updateWhiteboardElements(
    whiteboardBlockId: string,
    input: { elements: Array<WhiteboardElement & { id: string }> },
    options?: CallOptions,
  ): Promise<WhiteboardContent>;
  deleteWhiteboardElements(
    whiteboardBlockId: string,
    input: { elementIds: string[] },
    options?: CallOptions,
  ): Promise<{ deletedCount: number; remainingCount: number }>;
}

export const WHITEBOARD_BATCH = 500;

function batchOf(n: number, what: string): void {
  if (n > WHITEBOARD_BATCH) throw new RangeError(`at most ${WHITEBOARD_BATCH} whiteboard ${what} per request, got ${n}: send them in batches`);
}

export function otherApi(send: Send): OtherApi {
  const obj = <T>() => checkAs<T>(anyObject);
  const board = checkAs<WhiteboardContent>(whiteboardContent);
  const wb = (id: string) => `/whiteboards/${seg(id)}/elements`;
  return {
    getConnection: (options) =>
      send({ method: 'GET', endpoint: 'GET /connection', path: '/connection', blockCost: 0, root: true }, options, check(connectionInfo)),
    createComments: (input, options) =>
      send(
        { method: 'POST', endpoint: 'POST /comments', path: '/comments', json: input, blockCost: 0 },
        options,
        checkAs<Items<{ commentId: string }>>(objectItems),
      ),
    listReminders: (query = {}, options) =>
      send({ method: 'GET', endpoint: 'GET /reminders', path: '/reminders', query: { ...query }, blockCost: 0 }, options, checkAs<ReminderPage>(reminderPage)),
    createReminders: (input, options) =>
      send({ method: 'POST', endpoint: 'POST /reminders', path: '/reminders', json: input, blockCost: 0 }, options, checkAs<Items<Reminder>>(objectItems)),
    updateReminders: (input, options) =>
      send({ method: 'PUT', endpoint: 'PUT /reminders', path: '/reminders', json: input, blockCost: 0 }, options, checkAs<Items<Reminder>>(objectItems)),
    deleteReminders: (input, options) =>
      send({ method: 'DELETE', endpoint: 'DELETE /reminders', path: '/reminders', json: input, blockCost: 0 }, options, check(idStrings)),
    upload: (data, contentType, target, options) =>
      send(
        { method: 'POST', endpoint: 'POST /upload', path: '/upload', query: { ...target }, raw: { data, contentType }, blockCost: 1 },
        options,
        check(uploadResult),
      ),
    createWhiteboard: (input, options) =>
      send({ method: 'POST', endpoint: 'POST /whiteboards', path: '/whiteboards', json: input, blockCost: 1 }, options, obj<{ whiteboardBlockId: string }>()),
    getWhiteboardElements: (id, options) =>
      send({ method: 'GET', endpoint: 'GET /whiteboards/{whiteboardBlockId}/elements', path: wb(id), blockCost: 0 }, options, board),
    addWhiteboardElements: (id, input, options) => {
      batchOf(input.elements.length, 'elements');
      return send({ method: 'POST', endpoint: 'POST /whiteboards/{whiteboardBlockId}/elements', path: wb(id), json: input, blockCost: 0 }, options, board);
    },
    updateWhiteboardElements: (id, input, options) => {
      batchOf(input.elements.length, 'elements');
      return send({ method: 'PUT', endpoint: 'PUT /whiteboards/{whiteboardBlockId}/elements', path: wb(id), json: input, blockCost: 0 }, options, board);
    },
    deleteWhiteboardElements: (id, input, options) => {
      batchOf(input.elementIds.length, 'element ids');
      return send(
        { method: 'DELETE', endpoint: 'DELETE /whiteboards/{whiteboardBlockId}/elements', path: wb(id), json: input, blockCost: 0 },
        options,
        obj<{ deletedCount: number; remainingCount: number }>(),
      );
    },
  };
}

// Tasks across the inbox, daily notes and documents.
export interface TasksApi {
  /** `documentId` is required with scope `document`. */
  listTasks(query: { scope: TaskScope; documentId?: string }, options?: CallOptions): Promise<Items<Task>>;
  createTasks(input: { tasks: NewTask[] }, options?: CallOptions): Promise<Items<Task>>;
  updateTasks(input: { tasksToUpdate: TaskUpdate[] }, options?: CallOptions): Promise<Items<Task>>;
  deleteTasks(input: { idsToDelete: string[] }, options?: CallOptions): Promise<Items<IdItem>>;
}

export function tasksApi(send: Send): TasksApi {
  const taskItems = checkAs<Items<Task>>(tasks);
  return {
    listTasks: (query, options) =>
      send({ method: 'GET', endpoint: 'GET /tasks', path: '/tasks', query: { ...query }, blockCost: 0, root: query.scope !== 'document' }, options, taskItems),
    createTasks: (input, options) => send({ method: 'POST', endpoint: 'POST /tasks', path: '/tasks', json: input, blockCost: 0 }, options, taskItems),
    updateTasks: (input, options) =>
      send({ method: 'PUT', endpoint: 'PUT /tasks', path: '/tasks', json: input, blockCost: input.tasksToUpdate.length }, options, taskItems),
    deleteTasks: (input, options) => send({ method: 'DELETE', endpoint: 'DELETE /tasks', path: '/tasks', json: input, blockCost: 0 }, options, check(idItems)),
  };
}
