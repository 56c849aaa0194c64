// One measured figure of a benchmark, with its target, as bench/REPORT.md shows it.
export interface Figure {
  /** What was measured, e.g. "initial pull: requests ÷ (documents + folders)". */
  name: string;
  measured: number;
  unit: string;
  /** The target, e.g. { op: '<=', value: 1.05 }; omitted for figures shown for context. */
  target?: { op: '<=' | '>=' | '<' | '>' | '='; value: number };
  /** Extra context printed beside the figure (e.g. the naive figure it compares to). */
  note?: string;
}

export type Benchmark = () => Promise<Figure[]>;

export function meets(f: Figure): boolean | undefined {
  if (!f.target) return undefined;
  const { op, value } = f.target;
  switch (op) {
    case '<=': return f.measured <= value;
    case '>=': return f.measured >= value;
    case '<': return f.measured < value;
    case '>': return f.measured > value;
    case '=': return f.measured === value;
  }
}

/** measured ÷ target, the single comparable number of the report. */
export function ratio(f: Figure): number | undefined {
  if (!f.target || f.target.value === 0) return undefined;
  return f.measured / f.target.value;
}
