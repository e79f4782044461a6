import { Tokenizer } from '@huggingface/tokenizers';
import { buildReferenceTokenizer } from '../pack/referenceTokenizer.js';
const t = buildReferenceTokenizer();
const tok = new Tokenizer(t.json as any, {});
const e = tok.encode('<image>\n<|grounding|>Convert <td>x</td> a b');
console.log(e.ids, e.tokens);
console.log(JSON.stringify(tok.decode(e.ids)), JSON.stringify(tok.decode([0, ...e.ids, 1], { skip_special_tokens: true })));
