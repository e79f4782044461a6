import { runOlmocrBench, olmocrPipelineOutputs, formatOlmocrBench, runIcdarTableBench, loadIcdarTruth, gridToHtml, formatIcdarTableBench } from './main/bench/index.js';
console.log(formatOlmocrBench(await runOlmocrBench(olmocrPipelineOutputs())));
const truth = await loadIcdarTruth();
const perfect = async (pdf: string, page: number) => truth.filter(t => t.pdfPath === pdf && t.page === page).map(t => gridToHtml(t.grid)).join('\n\n');
console.log(formatIcdarTableBench(await runIcdarTableBench(perfect)));
