/**
 * Renderer build: React UI in renderer/, output to dist/renderer (served by the browser shell, loaded from file:// by
 * Electron — hence base './'). The Content-Security-Policy lives in renderer/index.html; the dev server strips it
 * because Vite's dev client injects an inline script, which the policy (rightly) forbids.
 */
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));

function stripCspInDevServer(): Plugin {
  return {
    name: 'recto:strip-csp-in-dev',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\s*/i, ''),
  };
}

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react(), stripCspInDevServer()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // Monaco alone is ~3 MB; the app is loaded from disk or 127.0.0.1, so one big chunk costs nothing noticeable.
    chunkSizeWarningLimit: 6000,
  },
  worker: { format: 'es' },
  server: { host: '127.0.0.1', fs: { allow: [repoRoot] } },
});
