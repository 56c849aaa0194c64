import { describe, expect, it } from 'vitest';
import { isInTasksDir, parseTaskList, renderTaskList, type TaskEntry } from './taskFiles.js';
import { alignTaskLines, planTaskFiles } from './planTaskFiles.js';

const t = (id: string, text: string, more: Partial<TaskEntry> = {}): TaskEntry => ({ id, text, state: 'todo', ...more });

describe('task files: render and parse', () => {
  it('renders one line per task with its dates and reads it back the same', () => {
    const tasks = [t('A', 'call Ana', { scheduleDate: '2026-12-01', deadlineDate: '2026-12-05' }), t('B', 'pay rent'), t('C', 'old', { state: 'done' })];
    const text = renderTaskList(tasks);
    expect(text).toBe('- [ ] call Ana ⏳ 2026-12-01 📅 2026-12-05\n- [ ] pay rent\n- [x] old\n');
    expect(parseTaskList(text)).toEqual(tasks.map(({ id: _id, ...line }) => line));
    expect(renderTaskList([])).toBe('');
  });

  it('takes a line without a checkbox as an open task and skips blank and empty lines', () => {
    expect(parseTaskList('buy milk\r\n\n- call Bo 📅 2026-12-09\n- [ ] \n- [X] done one\n- [-] dropped\n')).toEqual([
      { state: 'todo', text: 'buy milk' },
      { state: 'todo', text: 'call Bo', deadlineDate: '2026-12-09' },
      { state: 'done', text: 'done one' },
      { state: 'canceled', text: 'dropped' },
    ]);
  });

  it('keeps an impossible date as text', () => {
    expect(parseTaskList('- [ ] plan 📅 2026-02-30\n')).toEqual([{ state: 'todo', text: 'plan 📅 2026-02-30' }]);
  });

  it('knows the tasks directory whatever its case', () => {
    expect(isInTasksDir('Tasks/Inbox.md')).toBe(true);
    expect(isInTasksDir('tasks/x.md')).toBe(true);
    expect(isInTasksDir('Projects/Tasks/x.md')).toBe(false);
  });
});

describe('alignTaskLines', () => {
  it('ties a ticked, an edited and a moved line to their tasks; the rest is added or deleted', () => {
    const base = [t('A', 'call Ana'), t('B', 'buy bread'), t('C', 'sweep'), t('D', 'water plants')];
    const lines = parseTaskList('- [ ] new\n- [x] call Ana\n- [ ] sweep\n- [ ] buy bread and milk\n');
    const al = alignTaskLines(base, lines);
    expect(al.lineOf.get(0)).toBe(1);
    expect(al.lineOf.get(2)).toBe(2);
    expect(al.lineOf.get(1)).toBe(3);
    expect(al.deleted).toEqual([3]);
    expect(al.added).toEqual([0]);
  });
});

describe('planTaskFiles', () => {
  const base = [t('A', 'call Ana', { scheduleDate: '2026-12-01' }), t('B', 'pay rent'), t('C', 'sweep')];

  it('sends nothing for a file as it was written', () => {
    const plan = planTaskFiles(base, parseTaskList(renderTaskList(base)), { inbox: base, logbook: [] });
    expect(plan).toEqual({ create: [], update: [], remove: [], conflicts: [], adopted: [] });
  });

  it('creates added lines with their dates, completes ticked ones, deletes removed ones, sends changed fields only', () => {
    const local = parseTaskList('- [ ] water plants 📅 2026-12-07\n- [ ] call Ana ⏳ 2026-12-03\n- [x] pay rent\n');
    const plan = planTaskFiles(base, local, { inbox: base, logbook: [] });
    expect(plan.create).toEqual([{ state: 'todo', text: 'water plants', deadlineDate: '2026-12-07' }]);
    expect(plan.update).toEqual([
      { id: 'A', scheduleDate: '2026-12-03' },
      { id: 'B', state: 'done' },
    ]);
    expect(plan.remove).toEqual(['C']);
  });

  it('clears a removed date with null', () => {
    const plan = planTaskFiles(base, parseTaskList('- [ ] call Ana\n- [ ] pay rent\n- [ ] sweep\n'), { inbox: base, logbook: [] });
    expect(plan.update).toEqual([{ id: 'A', scheduleDate: null }]);
  });

  it('merges by field: each side keeps its change; both changed differently keeps the space and reports it', () => {
    const remote = [t('A', 'call Ana and Bo', { scheduleDate: '2026-12-01', deadlineDate: '2026-12-09' }), t('B', 'pay rent'), t('C', 'sweep')];
    const plan = planTaskFiles(base, parseTaskList('- [ ] call Ana ⏳ 2026-12-02 📅 2026-12-10\n- [ ] pay rent\n- [ ] sweep\n'), {
      inbox: remote,
      logbook: [],
    });
    expect(plan.update).toEqual([{ id: 'A', scheduleDate: '2026-12-02' }]);
    expect(plan.conflicts).toEqual([{ id: 'A', field: 'deadlineDate', local: '2026-12-10', remote: '2026-12-09' }]);
  });

  it('an edit beats a delete on either side', () => {
    const remote = [t('A', 'call Ana', { scheduleDate: '2026-12-01' }), t('C', 'sweep the hall')];
    const plan = planTaskFiles(base, parseTaskList('- [ ] call Ana ⏳ 2026-12-01\n- [ ] pay rent today\n'), { inbox: remote, logbook: [] });
    expect(plan.remove).toEqual([]);
    expect(plan.create).toEqual([{ state: 'todo', text: 'pay rent today' }]);
  });

  it('does not complete or delete what the space completed already', () => {
    const logbook = [t('B', 'pay rent', { state: 'done' }), t('C', 'sweep', { state: 'done' })];
    const plan = planTaskFiles(base, parseTaskList('- [ ] call Ana ⏳ 2026-12-01\n- [x] pay rent\n'), { inbox: [base[0]!], logbook });
    expect(plan).toEqual({ create: [], update: [], remove: [], conflicts: [], adopted: [] });
  });

  it('ties an added line to the same task the space gained instead of creating it twice', () => {
    const remote = [t('N', 'new one', { deadlineDate: '2026-12-24' }), ...base];
    const plan = planTaskFiles(base, parseTaskList(`- [ ] new one 📅 2026-12-24\n${renderTaskList(base)}`), { inbox: remote, logbook: [] });
    expect(plan.create).toEqual([]);
    expect(plan.adopted).toEqual(['N']);
    const ticked = planTaskFiles(base, parseTaskList(`- [x] new one 📅 2026-12-24\n${renderTaskList(base)}`), { inbox: remote, logbook: [] });
    expect(ticked.update).toEqual([{ id: 'N', state: 'done' }]);
  });
});
