/**
 * Older records.jsonl lines read as today's: version 1 carried the engine's JSON columns as strings, and the one-schema
 * writer fills absent keys with null. Kept apart from corpusRecord.ts, which describes the current format.
 */
/** Version-1 records carried the engine's JSON columns as strings; they are read as version 2. */
const legacyJsonColumns = ['settings', 'stats', 'words', 'fields', 'warnings'] as const;

export function upgradeRecord(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null) return raw;
  const record = withoutFilledNulls(raw as Record<string, unknown>);
  const engine = (record as { engine?: Record<string, unknown> }).engine;
  if (typeof engine !== 'object' || engine === null || !('settings_json' in engine)) return record;
  const upgraded: Record<string, unknown> = { ...engine };
  for (const column of legacyJsonColumns) {
    const text = upgraded[`${column}_json`];
    delete upgraded[`${column}_json`];
    upgraded[column] = typeof text === 'string' ? JSON.parse(text) : (text ?? null);
  }
  return { ...record, engine: upgraded };
}

/**
 * One schema per file (uniformJsonl.ts) writes every key seen at a path in every object there, null where absent: a
 * word's `fromImage` (present only when true) comes back absent, as the extraction's schema has it.
 */
function withoutFilledNulls(raw: Record<string, unknown>): Record<string, unknown> {
  const engine = raw.engine as { words?: unknown } | undefined;
  if (!engine || !Array.isArray(engine.words)) return raw;
  const words = engine.words.map((word: unknown) => {
    if (typeof word !== 'object' || word === null || (word as { fromImage?: unknown }).fromImage !== null) return word;
    const { fromImage: _filled, ...rest } = word as Record<string, unknown>;
    return rest;
  });
  return { ...raw, engine: { ...engine, words } };
}
