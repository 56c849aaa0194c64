// What the documents read by one pull share between them: their records, committed in batches
// (CommitBatcher), and the turns of the edits saved meanwhile, which go between documents.
import type { Journal } from '../../../journal/index.js';
import type { OwnWrite, SyncContext } from '../../context/index.js';
import { CommitBatcher } from './CommitBatcher.js';

/** The records of the documents pulled: queued in batches, each document known once its record is in. */
export class PulledRecords {
  private readonly batcher: CommitBatcher;
  /** The files written, recorded in the stat cache once the pull is over (the next scan need not read them). */
  readonly own: OwnWrite[] = [];
  private readonly commits: Array<Promise<void>> = [];
  /** Documents pulled and recorded: the media step may link their assets while the pull goes on. */
  readonly recorded = new Set<string>();

  constructor(journal: Journal) {
    this.batcher = new CommitBatcher(journal);
  }

  readonly wrote = (w: OwnWrite) => void this.own.push(w);

  commitOf(id: string) {
    return (write: () => void) => {
      const p = this.batcher.add(write);
      this.commits.push(p.then(() => void this.recorded.add(id)));
      return Promise.resolve();
    };
  }

  /** Commits what is queued; resolves once every record queued so far is in. */
  settle(): Promise<void[]> {
    this.batcher.flush();
    return Promise.all(this.commits);
  }
}

/**
 * Documents whose answer arrived and that are not yet recorded: edits waiting go first once these
 * are done. A document still waiting for its answer (the budget) does not hold them up: its
 * answer waits for them instead, and the document is read against the record they leave.
 */
export class EditsTurn {
  readonly underWay = new Set<Promise<unknown>>();
  yielding: Promise<void> | null = null;
  /** Pushes of edits run so far: a document whose read was out meanwhile checks its record again. */
  yields = 0;

  constructor(
    private readonly edits: SyncContext['editsWaiting'],
    private readonly records: PulledRecords,
  ) {}

  async letEditsGo(): Promise<void> {
    const edits = this.edits;
    if (!this.yielding && edits?.waiting()) {
      this.yielding = (async () => {
        await Promise.allSettled([...this.underWay]);
        // The documents pulled so far recorded first: the push merges each edit with its base.
        await this.records.settle();
        this.yields++;
        await edits.push();
      })().finally(() => (this.yielding = null));
    }
    await this.yielding;
  }
}
