// Acceptance scenarios 2–9 (test/scenarios/02-one-side-only to 09-folder-renamed-remote-new-doc)
// that concern push and merge, as data: the steps on each side, one full cycle against the real
// server, and what must hold after (then O2 and O3 always).
import { describe, expect, it } from 'vitest';
import { syncOnce } from '../../src/sync/cycle/syncOnce.js';
import type { SpaceFixture } from '../../src/server/index.js';
import { demoSpace } from '../pull/demoSpace.js';
import { remoteBlocks, runScenario, type Scenario } from './pushHarness.js';

const traps: SpaceFixture = {
  version: 1,
  space: { id: 'S-TRAPS', name: 'Traps', timezone: 'UTC' },
  documents: [
    {
      id: 'D-T',
      title: 'Traps',
      content: [
        { id: 'T1', markdown: 'some *em* here' },
        { id: 'T2', markdown: 'a <highlight color="yellow">mark</highlight>' },
        { id: 'T3', markdown: '---' },
        { id: 'T4', markdown: 'trailing  ' },
      ],
    },
  ],
};
const TRAPS_TEXT = '---\r\nid: D-T\r\n---\r\nsome _em_ here\r\n\r\na ==mark==\r\n\r\n---\r\n\r\ntrailing  ';

const scenarios: Scenario[] = [
  {
    name: '1. a file re-saved in the forms the service normalises (CRLF, no final newline, _em_, ==x==, ---): nothing sent, nothing rewritten',
    fixture: traps,
    local: [{ write: 'Unsorted/Traps.md', text: TRAPS_TEXT }],
    writes: [],
    files: { 'Unsorted/Traps.md': TRAPS_TEXT },
  },
  {
    name: '2. a one-block edit here is one PUT /blocks with one block; untouched blocks keep their ids',
    local: [{ edit: 'Unsorted/Note.md', from: 'second paragraph', to: 'second, edited here' }],
    writes: ['PUT /blocks'],
    documents: { 'D-NOTE': ['first paragraph', 'second, edited here', 'third paragraph'] },
    keptIds: ['N1', 'N2', 'N3'],
    check: async (w) => {
      const put = (await w.space.requests()).filter((r) => r.method === 'PUT');
      expect(put.map((r) => r.blocksCharged)).toEqual([1]);
    },
  },
  {
    name: '2. blocks inserted, deleted and moved here: one POST per inserted run, one move, one DELETE',
    local: [{ write: 'Projects/Plan.md', text: '---\nid: D-PLAN\n---\n# Plan\n\nnew intro\n\nsecond new line\n\n- two\n- one\n' }],
    writes: ['PUT /blocks/move', 'POST /blocks', 'DELETE /blocks'],
    documents: { 'D-PLAN': ['# Plan', 'new intro', 'second new line', '- two', '- one'] },
    keptIds: ['P1', 'P2', 'P3'],
  },
  {
    name: '2. a new file becomes a document in its folder, and gets its id in the front matter',
    local: [{ write: 'Projects/Launch.md', text: '# Launch\n\nready soon\n' }],
    writes: ['POST /documents', 'POST /blocks'],
    files: { 'Projects/Launch.md': /^---\nid: .+\n---\n# Launch\n\nready soon\n$/ },
  },
  {
    name: '2. a new file at the top of the mirror goes to Unsorted',
    local: [{ write: 'Loose.md', text: 'loose words\n' }],
    writes: ['POST /documents', 'POST /blocks'],
    files: { 'Loose.md': null, 'Unsorted/Loose.md': /loose words/ },
  },
  {
    name: '2. a deleted file sends its document to the trash (the mirror shows it in Trash/)',
    local: [{ remove: 'Unsorted/Ideas.md' }],
    writes: ['DELETE /documents'],
    placed: { 'D-IDEA': 'trash' },
    files: { 'Unsorted/Ideas.md': null, 'Trash/Ideas.md': /an idea/ },
  },
  {
    name: '2. a file moved into Trash/ deletes its document; its edit is sent first',
    local: [
      { move: 'Unsorted/Ideas.md', to: 'Trash/Ideas.md' },
      { edit: 'Trash/Ideas.md', from: 'an idea', to: 'an old idea' },
    ],
    writes: ['PUT /blocks', 'DELETE /documents'],
    placed: { 'D-IDEA': 'trash' },
    documents: { 'D-IDEA': ['an old idea'] },
  },
  {
    name: '2. a renamed file renames its document (its title is the root block)',
    local: [{ move: 'Unsorted/Ideas.md', to: 'Unsorted/Better ideas.md' }],
    writes: ['PUT /blocks'],
    files: { 'Unsorted/Ideas.md': null, 'Unsorted/Better ideas.md': /an idea/ },
    check: async (w) => {
      const docs = (await w.space.call('GET', '/documents')).items as Array<{ id: string; title: string }>;
      expect(docs.find((d) => d.id === 'D-IDEA')!.title).toBe('Better ideas');
    },
  },
  {
    name: '2. a file moved to another folder moves its document',
    local: [{ move: 'Unsorted/Ideas.md', to: 'Home/Ideas.md' }],
    writes: ['PUT /documents/move'],
    placed: { 'D-IDEA': 'Home' },
  },
  {
    name: '2. a new folder with a file in it: the folder, then the document',
    local: [{ write: 'Garden/Seeds.md', text: 'tomatoes\n' }],
    writes: ['POST /folders', 'POST /documents', 'POST /blocks'],
    files: { 'Garden/Seeds.md': /tomatoes/ },
  },
  {
    name: '2. an empty new folder is created',
    local: [{ mkdir: 'Empty' }],
    writes: ['POST /folders'],
    check: async (w) => {
      const names = ((await w.space.call('GET', '/folders')).items as Array<{ name: string }>).map((f) => f.name);
      expect(names).toContain('Empty');
    },
  },
  {
    name: '2. a deleted folder: its documents go to the trash, then the folder is deleted',
    local: [{ rmdir: 'Home' }],
    writes: ['DELETE /documents', 'DELETE /folders'],
    placed: { 'D-CHORE': 'trash' },
    files: { 'Trash/Chores.md': /dishes/ },
  },
  {
    name: '2. a new daily note is written into its date',
    local: [{ write: 'Daily Notes/2026-09-05.md', text: 'today, from my editor\n' }],
    writes: ['POST /blocks'],
    files: { 'Daily Notes/2026-09-05.md': /^---\nid: .+\n---\ntoday, from my editor\n$/ },
  },
  {
    name: '2. changes made only in the space are pulled, nothing is sent',
    remote: [
      { method: 'PUT', path: '/blocks', body: { blocks: [{ id: 'N1', markdown: 'first, from the app' }] } },
      { method: 'POST', path: '/documents', body: { documents: [{ title: 'From the app' }] } },
      { method: 'DELETE', path: '/documents', body: { documentIds: ['D-IDEA'] } },
      { method: 'POST', path: '/folders', body: { folders: [{ name: 'App folder' }] } },
    ],
    writes: [],
    files: { 'Unsorted/Note.md': /first, from the app/, 'Unsorted/From the app.md': /id:/, 'Trash/Ideas.md': /an idea/, 'Unsorted/Ideas.md': null },
  },
  {
    name: '3. the same block edited differently on both sides: the space keeps its version, the file becomes a conflict copy, recorded',
    local: [{ edit: 'Unsorted/Note.md', from: 'second paragraph', to: 'second, mine' }],
    remote: [{ method: 'PUT', path: '/blocks', body: { blocks: [{ id: 'N2', markdown: 'second, theirs' }] } }],
    writes: [],
    exitCode: 3,
    conflicts: 1,
    documents: { 'D-NOTE': ['first paragraph', 'second, theirs', 'third paragraph'] },
    files: { 'Unsorted/Note.md': /second, theirs/ },
    check: async (w) => {
      const [c] = w.session.journal.listConflicts();
      expect(c).toMatchObject({ docId: 'D-NOTE', path: 'Unsorted/Note.md' });
      expect(w.read(c!.copyPath)).toContain('second, mine');
    },
  },
  {
    name: '4. different blocks of one document edited on both sides: merged, both edits everywhere',
    local: [{ edit: 'Unsorted/Note.md', from: 'first paragraph', to: 'first, mine' }],
    remote: [{ method: 'PUT', path: '/blocks', body: { blocks: [{ id: 'N3', markdown: 'third, theirs' }] } }],
    writes: ['PUT /blocks'],
    documents: { 'D-NOTE': ['first, mine', 'second paragraph', 'third, theirs'] },
    files: { 'Unsorted/Note.md': '---\nid: D-NOTE\n---\nfirst, mine\n\nsecond paragraph\n\nthird, theirs\n' },
  },
  {
    name: '5. the same edit on both sides: no conflict, no write',
    local: [{ edit: 'Unsorted/Note.md', from: 'second paragraph', to: 'second, _same_' }],
    remote: [{ method: 'PUT', path: '/blocks', body: { blocks: [{ id: 'N2', markdown: 'second, *same*' }] } }],
    writes: [],
    files: { 'Unsorted/Note.md': /second, _same_/ },
  },
  {
    name: '6. file deleted here while the document is edited in the space: the edit survives, the file returns',
    local: [{ remove: 'Unsorted/Ideas.md' }],
    remote: [{ method: 'PUT', path: '/blocks', body: { blocks: [{ id: 'I1', markdown: 'an idea, improved' }] } }],
    writes: [],
    placed: { 'D-IDEA': 'unsorted' },
    files: { 'Unsorted/Ideas.md': /an idea, improved/ },
  },
  {
    name: '7. document trashed in the space while its file is edited here: the edit is sent and the document restored',
    local: [{ edit: 'Unsorted/Ideas.md', from: 'an idea', to: 'a better idea' }],
    remote: [{ method: 'DELETE', path: '/documents', body: { documentIds: ['D-IDEA'] } }],
    writes: ['PUT /documents/move', 'PUT /blocks'],
    placed: { 'D-IDEA': 'unsorted' },
    documents: { 'D-IDEA': ['a better idea'] },
    files: { 'Unsorted/Ideas.md': /a better idea/ },
  },
  {
    name: '8. deleted on both sides: clean, nothing sent, no resurrection outside the trash',
    local: [{ remove: 'Unsorted/Ideas.md' }],
    remote: [{ method: 'DELETE', path: '/documents', body: { documentIds: ['D-IDEA'] } }],
    writes: [],
    placed: { 'D-IDEA': 'trash' },
    files: { 'Unsorted/Ideas.md': null, 'Trash/Ideas.md': /an idea/ },
  },
  {
    name: '9. folder renamed here while the space gets a new document in it: one move of the documents, no delete guard, the new document lands in the renamed folder',
    local: [{ move: 'Projects', to: 'Work' }],
    remote: [{ method: 'POST', path: '/documents', body: { documents: [{ title: 'Fresh' }], destination: { folderId: 'F-PROJ' } } }],
    writes: ['POST /folders', 'PUT /documents/move', 'PUT /folders/move', 'DELETE /folders'],
    files: { 'Work/Plan.md': /closing words/, 'Work/Fresh.md': /id:/, 'Work/Sub/Deep.md': /deep text/, 'Projects/Plan.md': null },
    placed: { 'D-PLAN': 'Work', 'D-DEEP': 'Sub' },
  },
  {
    name: '9. folder moved under another keeping its name: one folder move, the folder keeps its id',
    local: [{ move: 'Home', to: 'Projects/Home' }],
    writes: ['PUT /folders/move'],
    files: { 'Projects/Home/Chores.md': /dishes/ },
    placed: { 'D-CHORE': 'Home' },
  },
  {
    name: '18. output-only and unsupported content stays untouched when an unrelated block is edited: one PUT with one block',
    fixture: demoSpace,
    local: [{ edit: 'Projects/Roadmap.md', from: 'the end', to: 'the very end' }],
    writes: ['PUT /blocks'],
    keptIds: ['B-COLL', 'B-ITEM1', 'B-IMG', 'B-CARD', 'B-PAGE', 'B-DEEPER', 'B-CODE'],
    check: async (w) => {
      const blocks = await remoteBlocks(w.space, 'D-ROAD');
      expect(blocks.find((b) => b.id === 'B-LAST')!.markdown).toBe('the very end');
      expect((await w.space.requests()).find((r) => r.method === 'PUT')!.blocksCharged).toBe(1);
    },
  },
  {
    name: "18. a collection's header is its schema: a changed column is not sent, the user is told, the table comes back from the space",
    fixture: demoSpace,
    local: [{ edit: 'Projects/Roadmap.md', from: '| title | status |', to: '| title | state |' }],
    writes: [],
    exitCode: 4,
    converges: true,
    problems: [/header of the collection "Tasks table" changed .* changed in the app/],
    files: { 'Projects/Roadmap.md': /\| title \| status \|\n\| --- \| --- \|\n\| First item \| open \|/ },
    check: async (w) => {
      const again = await syncOnce(w.session.ctx);
      expect(again.push.plan.problems).toEqual([]);
      expect(w.read('Projects/Roadmap.md')).not.toContain('| state |');
    },
  },
];

describe('push and merge scenarios', () => {
  for (const s of scenarios) it(s.name, () => runScenario(s));
});
