// The service's inline normalisations: `_x_` → `*x*`, `__x__` → `**x**`, `==x==` → a yellow
// highlight tag. Code spans, math, link targets, tags and bare URLs are left as they are.

const PROTECTED = /(`+)[\s\S]*?\1|\$\$[\s\S]*?\$\$|\$[^$\s](?:[^$]*[^$\s])?\$|\]\([^)]*\)|<[^<>\n]*>|\bhttps?:\/\/[^\s<>()]+/g;
const STRONG = /(^|[^\w\\_])__(?![\s_])([^\n]*?[^\s\\_])__(?![\w_])/g;
const EM = /(^|[^\w\\_*])_(?![\s_])([^\n]*?[^\s\\_])_(?![\w_])/g;
const MARK = /(^|[^=\\])==(?![\s=])([^\n]*?[^\s=\\])==(?!=)/g;

export function normalizeInline(text: string): string {
  const hasUnderscore = text.includes('_');
  const hasMark = text.includes('==');
  // The placeholder character below must not occur in the text itself.
  if ((!hasUnderscore && !hasMark) || text.includes('\uE000')) return text;
  const kept: string[] = [];
  // Placeholders use a private-use character that cannot appear in the patterns above.
  let out = text.replace(PROTECTED, (m) => `\uE000${kept.push(m) - 1}\uE001`);
  if (hasUnderscore) out = out.replace(STRONG, '$1**$2**').replace(EM, '$1*$2*');
  if (hasMark) out = out.replace(MARK, '$1<highlight color="yellow">$2</highlight>');
  return kept.length === 0 ? out : out.replace(/\uE000(\d+)\uE001/g, (_m, i: string) => kept[Number(i)] ?? '');
}
