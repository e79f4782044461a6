/** Quality benchmarks over the shared public test set; engines are callbacks (see each module). */
export { runOlmocrBench, olmocrPipelineOutputs, formatOlmocrBench, type ReadPage, type OlmocrBenchResult } from './olmocrBench.js';
export { runInvoiceFieldBench, pdftotextLayerReader, formatInvoiceFieldBench, knownArtefacts, type ReadInvoice, type InvoiceFieldBenchResult } from './invoiceFieldBench.js';
export { runIcdarTableBench, loadIcdarTruth, formatIcdarTableBench, gridToHtml, type IcdarTableBenchResult } from './icdarTableBench.js';
export { runCerBench, loadPdfjsCerPages, markdownToPlainText, characterErrorRate, type CerBenchResult } from './cerBench.js';
export { defaultTestdataRoot } from '../../testing/testdataPaths.js';
