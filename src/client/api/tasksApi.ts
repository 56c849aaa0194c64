// Tasks across the inbox, daily notes and documents.
import type { CallOptions, Send } from '../apiCall.js';
import { check, checkAs } from '../check.js';
import { idItems, tasks } from '../schemas.js';
import type { IdItem, Items, NewTask, Task, TaskScope, TaskUpdate } from '../../wire/types.js';

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
