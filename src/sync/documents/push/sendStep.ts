// Sends one step of a plan (its refs already resolved) through the client's endpoint for it, at
// the user's priority. The answer comes back as the service gave it.
import type { CreateBlocksInput, CreateDocumentsInput, DocumentDestination, FolderDestination, Position, TaskUpdate } from '../../../client/index.js';
import type { PlanStep } from '../../../core/push/plan.js';
import type { SyncContext } from '../../context/index.js';

export async function sendStep(ctx: SyncContext, step: PlanStep): Promise<unknown> {
  const { client } = ctx;
  const o = { priority: 'user' as const };
  const body = (step.body ?? {}) as Record<string, unknown>;
  switch (`${step.method} ${step.path}`) {
    case 'GET /blocks': {
      const q = step.query ?? {};
      const depth = q.maxDepth === undefined ? {} : { maxDepth: Number(q.maxDepth) };
      return q.date !== undefined ? client.getBlocks({ date: q.date, ...depth }, o) : client.getBlocks({ id: q.id!, ...depth }, o);
    }
    case 'POST /blocks':
      return client.createBlocks(body as unknown as CreateBlocksInput, o);
    case 'PUT /blocks':
      return client.updateBlocks(body as { blocks: Array<{ id: string; markdown: string }> }, o);
    case 'PUT /tasks':
      return client.updateTasks(body as unknown as { tasksToUpdate: TaskUpdate[] }, o);
    case 'PUT /blocks/move':
      return client.moveBlocks(body as { blockIds: string[]; position: Position }, o);
    case 'DELETE /blocks':
      return client.deleteBlocks(body as { blockIds: string[] }, o);
    case 'POST /documents':
      return client.createDocuments(body as unknown as CreateDocumentsInput, o);
    case 'PUT /documents/move':
      return client.moveDocuments(body as { documentIds: string[]; destination: DocumentDestination }, o);
    case 'DELETE /documents':
      return client.deleteDocuments(body as { documentIds: string[] }, o);
    case 'POST /folders':
      return client.createFolders(body as { folders: Array<{ name: string; parentFolderId?: string }> }, o);
    case 'PUT /folders/move':
      return client.moveFolders(body as { folderIds: string[]; destination: FolderDestination }, o);
    case 'DELETE /folders':
      return client.deleteFolders(body as { folderIds: string[] }, o);
    default:
      throw new Error(`sendStep: no endpoint for ${step.method} ${step.path}`);
  }
}
