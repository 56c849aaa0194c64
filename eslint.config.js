// Lint: typescript-eslint's recommended rules plus the layer boundaries of docs/architecture.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layerRules } from './eslint.layers.js';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'demo-space/**', 'coverage/**', 'fixtures/**', 'bench/out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
        AbortController: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-control-regex': 'off',
    },
  },
  {
    // The console's page (src/console/page): ES modules that run in the browser, not in Node.
    files: ['src/console/page/**/*.js'],
    languageOptions: {
      globals: {
        document: 'readonly',
        location: 'readonly',
        addEventListener: 'readonly',
        removeEventListener: 'readonly',
        EventSource: 'readonly',
        fetch: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        encodeURIComponent: 'readonly',
      },
    },
  },
  ...layerRules,
);
