/** What the master-data import needs of the project store (a narrow view, so tests can hand a store directly). */
import type { MasterDataRepository } from '../store/masterData.js';
export type { MasterDataImportReport } from '../store/masterData.js';

export interface ProjectStoreMasterData {
  masterData: MasterDataRepository;
}
