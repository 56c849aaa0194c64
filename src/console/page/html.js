// The page's one way to write markup: htm's tagged templates over preact's h (no build step).
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
