#!/usr/bin/env node
// The `recto` command. The CLI is TypeScript compiled to dist/ by `npm run build` (README's commands do it).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../../dist/main/cli/recto.js', import.meta.url);
if (!fs.existsSync(fileURLToPath(compiled))) {
  process.stderr.write('recto: not built yet; run `npm run build` (or `npm start`) in the Recto folder first\n');
  process.exit(1);
}
await import(compiled.href);
