import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from './log.js';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

const LINK = 'https://space.example/links/ABCDEF123456SECRET/api/v1';
const KEY = 'sk-very-secret-key-42';

describe('createLogger', () => {
  it('masks the link id and API key in messages, fields, nested objects, errors and bindings', async () => {
    const { lines, stream } = capture();
    const log = createLogger({ destination: stream, secrets: [KEY] });
    const child = log.child({ link: LINK });
    child.info({ url: `${LINK}/blocks?id=1`, deep: { headers: { authorization: `Bearer ${KEY}` }, list: [LINK] } }, `GET ${LINK}/documents`);
    const err = new Error(`request to ${LINK}/folders failed with key ${KEY}`);
    log.error({ err }, 'failed');
    log.warn(`plain ${KEY}`);
    await new Promise((r) => setImmediate(r));
    const all = lines.join('\n');
    expect(lines).toHaveLength(3);
    expect(all).not.toContain('ABCDEF123456SECRET');
    expect(all).not.toContain(KEY);
    expect(all).toContain('/links/ABCD…/api/v1');
    expect(all).toContain('[redacted]');
    const first = JSON.parse(lines[0]!);
    expect(first.msg).toBe('GET https://space.example/links/ABCD…/api/v1/documents');
    expect(first.deep.headers.authorization).toBe('Bearer [redacted]');
  });

  it('keeps ordinary records intact', async () => {
    const { lines, stream } = capture();
    createLogger({ destination: stream }).info({ doc: 'D1', n: 3 }, 'pulled');
    await new Promise((r) => setImmediate(r));
    expect(JSON.parse(lines[0]!)).toMatchObject({ doc: 'D1', n: 3, msg: 'pulled', level: 30 });
  });
});
