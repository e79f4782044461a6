/** Removes the compiled Node side so that files deleted from the sources do not live on in dist/. */
import fs from 'node:fs';
import path from 'node:path';
import { root } from './bootstrap.mjs';

for (const folder of ['app', 'main', 'native-models', 'resources']) {
  fs.rmSync(path.join(root, 'dist', folder), { recursive: true, force: true });
}
