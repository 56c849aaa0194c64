import { describe, expect, it } from 'vitest';
import { normalizeInline } from './readBlock.js';

describe('normalizeInline', () => {
  it.each([
    ['_a_ and _b c_', '*a* and *b c*'],
    ['__strong__', '**strong**'],
    ['_foo_bar_', '*foo_bar*'],
    ['a ==mark== b', 'a <highlight color="yellow">mark</highlight> b'],
    ['x == y == z', 'x == y == z'],
    ['snake_case_name', 'snake_case_name'],
    ['`_code_` and ``==x==``', '`_code_` and ``==x==``'],
    ['$x_1 + y_2$ and $$a_b$$', '$x_1 + y_2$ and $$a_b$$'],
    ['[_a_ b](https://x/_y_) https://z/_w_', '[*a* b](https://x/_y_) https://z/_w_'],
    ['<highlight color="gradient_blue_x">h</highlight>', '<highlight color="gradient_blue_x">h</highlight>'],
    ['\\_not\\_', '\\_not\\_'],
    ['_ spaced _', '_ spaced _'],
  ])('%j → %j', (input, out) => {
    expect(normalizeInline(input)).toBe(out);
  });
});
