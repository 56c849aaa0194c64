import { describe, expect, it } from 'vitest';
import { parseErrorBody } from './parseErrorBody.js';

describe('parseErrorBody', () => {
  it('reads every error shape of the service', () => {
    expect(parseErrorBody('{"error":"Invalid Authorization header","code":"INVALID_AUTH_HEADER"}', 'application/json')).toMatchObject({
      code: 'INVALID_AUTH_HEADER',
      message: 'Invalid Authorization header',
      html: false,
    });
    expect(
      parseErrorBody(
        JSON.stringify({
          error: 'Validation failed',
          code: 'VALIDATION_ERROR',
          details: [
            { code: 'custom', message: "Either 'date' or 'id' must be specified." },
            { code: 'custom', message: 'bad', path: ['blocks', 0, 'id'] },
          ],
        }),
        'application/json',
      ),
    ).toMatchObject({ code: 'VALIDATION_ERROR', message: "Validation failed: Either 'date' or 'id' must be specified.; blocks.0.id: bad" });
    expect(parseErrorBody('{"errors":[{"code":"NOT_FOUND_ERROR","message":"Block not found"}]}', 'application/json')).toMatchObject({
      code: 'NOT_FOUND_ERROR',
      message: 'Block not found',
    });
    expect(
      parseErrorBody(
        JSON.stringify({ error: 'Invalid regular expression', code: 'INVALID_REGEX_ERROR', details: { pattern: '(a', reason: 'missing )', nested: { x: 1 } } }),
        'application/json',
      ),
    ).toMatchObject({ code: 'INVALID_REGEX_ERROR', message: 'Invalid regular expression: pattern: (a, reason: missing )' });
    expect(
      parseErrorBody('<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>', 'text/html; charset=utf-8'),
    ).toMatchObject({ code: undefined, message: '404 Not Found', html: true });
  });

  it('copes with bodies that are none of them', () => {
    expect(parseErrorBody('', undefined)).toMatchObject({ message: 'an empty body', html: false });
    expect(parseErrorBody('upstream timed out', 'text/plain')).toMatchObject({ message: 'upstream timed out' });
    expect(parseErrorBody('<html><body><p>Oops</p></body></html>', undefined)).toMatchObject({ message: 'Oops', html: true });
    expect(parseErrorBody('[1,2]', 'application/json')).toMatchObject({ message: '[1,2]' });
  });
});
