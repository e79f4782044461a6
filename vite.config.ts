/**
 * Renderer build: React UI in renderer/, output to dist/renderer (served by the browser shell, loaded from file:// by
 * Electron — hence base './'). The Content-Security-Policy lives in renderer/index.html; the dev server strips it
 * because Vite's dev client injects an inline script, which the policy (rightly) forbids.
 */
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
/** The build prints one summary line; RECTO_BUILD_VERBOSE=1 (or `vite build --logLevel info`) shows Vite's asset table. */
const verbose = Boolean(process.env.RECTO_BUILD_VERBOSE);

function summaryLine(): Plugin {
  let files = 0;
  let bytes = 0;
  return {
    name: 'recto:summary-line',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const item of Object.values(bundle)) {
        if (item.fileName.endsWith('.map')) continue;
        files += 1;
        bytes += item.type === 'chunk' ? Buffer.byteLength(item.code) : typeof item.source === 'string' ? Buffer.byteLength(item.source) : item.source.byteLength;
      }
    },
    closeBundle() {
      if (files === 0 || verbose) return;
      process.stdout.write(
        `renderer: ${files} files, ${(bytes / 1e6).toFixed(1)} MB in dist/renderer (RECTO_BUILD_VERBOSE=1 npm run build lists them)\n`,
      );
      files = 0;
    },
  };
}

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
  plugins: [react(), stripCspInDevServer(), summaryLine()],
  logLevel: verbose ? 'info' : 'warn',
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
