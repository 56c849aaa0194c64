import { describe, expect, it } from 'vitest';
import { commandsFor } from './program.js';

const ALL = ['server', 'sync', 'init', 'status', 'conflicts', 'approve', 'history', 'restore', 'revert', 'plan', 'demo', 'service', 'console'];

describe('commandsFor: only the command being run is loaded', () => {
  it.each([
    [['sync', '--once'], ['sync']],
    [['server', '--port', '0'], ['server']],
    [['--version'], []],
    [['-V'], []],
    [[], ALL],
    [['--help'], ALL],
    [['help', 'sync'], ALL],
    [['frobnicate'], ALL],
  ])('%j loads %j', (args, expected) => {
    expect(commandsFor(args)).toEqual(expected);
  });
});
