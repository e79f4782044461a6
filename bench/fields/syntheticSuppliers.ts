/**
 * Filler suppliers for the memory-cost benchmark: copies of the real lessons under other names, identifiers and
 * fixed-line hashes, so recognising a page has to pass over 1,000 suppliers as in a large project, and none of them
 * matches a real page by accident.
 */
import type { TaughtLesson } from '../../app/invoice/supplierMemory/index.js';
import { seededUint32 } from '../../testing/seededRandom.js';

export function syntheticLessons(real: readonly TaughtLesson[], count: number): TaughtLesson[] {
  const next = seededUint32(28);
  const out: TaughtLesson[] = [];
  for (let i = 0; i < count && real.length > 0; i++) {
    const model = real[i % real.length]!;
    const name = `Filler Supplier ${i} ${next().toString(36)} GmbH`;
    out.push({
      supplierId: `filler-${i}`,
      supplierName: name,
      pageId: `filler-page-${i}`,
      lesson: {
        ...model.lesson,
        identity: {
          name,
          vatIds: [`DE${String(100000000 + (next() % 899999999))}`],
          ibans: [`DE${String(next()).padStart(20, '0')}`],
          taxNumbers: [`${String(next() % 1e10).padStart(10, '0')}`],
          phones: [],
          letterhead: model.lesson.identity.letterhead.map((line) => `${line}${i}`),
          glns: [`${String(4000000000000 + (next() % 999999999))}`],
          fingerprint: model.lesson.identity.fingerprint.map(() => next()),
        },
      },
    });
  }
  return out;
}
