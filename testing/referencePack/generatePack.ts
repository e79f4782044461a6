/**
 * Writes a reference pack to a folder, for trying the engine end to end (its text is nonsense by design):
 *   npx tsx testing/referencePack/generatePack.ts OUT_DIR [--variant high|mid|zero] [--seed N] [--real-size]
 */
import { parseArgs } from 'node:util';
import { realSizeDims, toyDims } from './referenceDims.js';
import { type DraftVariant, writeReferencePack } from './writeReferencePack.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { variant: { type: 'string', default: 'high' }, seed: { type: 'string', default: '1' }, 'real-size': { type: 'boolean', default: false } },
});
const dir = positionals[0];
if (!dir || !['high', 'mid', 'zero'].includes(values.variant!)) {
  console.error('usage: generatePack.ts OUT_DIR [--variant high|mid|zero] [--seed N] [--real-size]');
  process.exit(2);
}
const manifest = await writeReferencePack({ dir, variant: values.variant as DraftVariant, seed: Number(values.seed), dims: values['real-size'] ? realSizeDims : toyDims });
console.log(`wrote ${manifest.name} (${manifest.files.length} files) to ${dir}`);
