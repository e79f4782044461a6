/**
 * How far an invoice may stray from its purchase order before it is an exception. Defaults as accounts payable
 * usually sets them: a unit price within the larger of 0.5 % and one cent; a quantity no more than ordered (less
 * what other invoices already billed), and no more than received where goods receipts were imported for the PO; a
 * line amount within one cent of quantity × price. A supplier may have its own (a supplier that rounds prices to
 * the euro gets a wider absolute price tolerance), keyed by VAT ID or name (masterData.ts vatKey / nameKey).
 */
import { z } from 'zod';

export const matchTolerancesSchema = z.object({
  /** Relative price tolerance per unit (0.005 = 0.5 %). */
  priceRelative: z.number().min(0).max(1),
  /** Absolute price tolerance per unit, in the invoice currency. */
  priceAbsolute: z.number().min(0).max(1e6),
  /** Quantity above the open ordered quantity that is still no exception (0: none). */
  quantityOver: z.number().min(0).max(1e9),
  /** Tolerance on a line amount against quantity × price, in the invoice currency. */
  totalAbsolute: z.number().min(0).max(1e6),
});
export type MatchTolerances = z.infer<typeof matchTolerancesSchema>;

export const defaultMatchTolerances: MatchTolerances = { priceRelative: 0.005, priceAbsolute: 0.01, quantityOver: 0, totalAbsolute: 0.01 };

/** The price tolerance per unit for an ordered unit price. */
export const priceTolerance = (t: MatchTolerances, orderedUnitPrice: number): number => Math.max(Math.abs(orderedUnitPrice) * t.priceRelative, t.priceAbsolute);

export const matchSettingsSchema = z.object({
  defaults: matchTolerancesSchema,
  /** Per supplier key (VAT key or name key): the tolerances that replace the defaults for that supplier. */
  bySupplier: z.record(z.string().max(200), matchTolerancesSchema.partial()),
});
export type MatchSettings = z.infer<typeof matchSettingsSchema>;

export const defaultMatchSettings = (): MatchSettings => ({ defaults: { ...defaultMatchTolerances }, bySupplier: {} });

/** The tolerances that apply to one supplier. */
export function tolerancesFor(settings: MatchSettings, keys: readonly (string | null)[]): MatchTolerances {
  for (const key of keys) {
    const own = key ? settings.bySupplier[key] : undefined;
    if (own) return { ...settings.defaults, ...own };
  }
  return settings.defaults;
}
