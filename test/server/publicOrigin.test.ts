// The origin of signed media URLs (docs/server.md "Requests"): the address the server listens on,
// or the public URL it was given; never the Host header of a request, which a client chooses.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { fixture, ids } from './spaceFixture.js';
import { startServer } from '../../src/server/index.js';
import { isSpacesyncError } from '../../src/errors.js';

let h: Harness;
let behindProxy: Harness;
beforeAll(async () => {
  h = await startHarness({ fixture });
  behindProxy = await startHarness({ fixture, publicUrl: 'https://space.example.com/' });
});
afterAll(async () => {
  await h.close();
  await behindProxy.close();
});

/** A request with a Host header of the caller's choosing (fetch does not let one set it). */
function withHost(url: string, host: string, method = 'GET', body?: Buffer): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { host, ...(body ? { 'content-type': 'image/png', 'content-length': String(body.length) } : {}) } });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const FORGED = 'attacker.example:4444';

describe('signed media URLs', () => {
  it('name the listening address whatever Host the request says', async () => {
    const doc = await withHost(`${h.server.baseUrl}/blocks?id=${ids.roadmap}`, FORGED);
    const image = doc.content.find((b: any) => b.id === 'B-IMG');
    expect(image.url.startsWith(`${h.server.origin}/assets/A-IMG?`)).toBe(true);
    expect(image.markdown).toContain(`](${h.server.origin}/assets/`);
    expect(JSON.stringify(doc)).not.toContain('attacker.example');
    const up = await withHost(`${h.server.baseUrl}/upload?position=end&pageId=${ids.unsorted}`, FORGED, 'POST', Buffer.from('png'));
    expect(up.assetUrl.startsWith(`${h.server.origin}/assets/`)).toBe(true);
  });

  it('name the public URL when the server has one, whatever Host the request says', async () => {
    expect(behindProxy.server.origin).toBe('https://space.example.com');
    expect(behindProxy.server.baseUrl).toMatch(/^https:\/\/space\.example\.com\/links\//);
    const local = behindProxy.server.baseUrl.replace('https://space.example.com', behindProxy.server.listenOrigin);
    const doc = await withHost(`${local}/blocks?id=${ids.roadmap}`, FORGED);
    expect(doc.content.find((b: any) => b.id === 'B-IMG').url).toMatch(/^https:\/\/space\.example\.com\/assets\/A-IMG\?expires=/);
    expect(JSON.stringify(doc)).not.toContain('attacker.example');
  });

  it('a public URL with a path or of another scheme is refused at start', async () => {
    for (const publicUrl of ['https://space.example.com/sub', 'ftp://space.example.com', 'not a url']) {
      const e = await startServer({ publicUrl }).then(
        async (s) => {
          await s.close();
          return undefined;
        },
        (x: unknown) => x,
      );
      expect(isSpacesyncError(e, 'usage'), publicUrl).toBe(true);
    }
  });
});
