#!/usr/bin/env python3
"""Export jina-ocr-v1 (DeepSeek-OCR encoder + DeepSeek-V2 MoE decoder + FastMTP draft head) to a Recto model pack.

    python export_jina_ocr.py export --snapshot /path/to/jina-ocr-v1 --out /path/to/pack [--cache-form shared-buffer] [--moe-form gather] [--draft-vocab N]
    python export_jina_ocr.py parity --snapshot /path/to/jina-ocr-v1 --pack /path/to/pack --pages p1.png p2.png p3.png
    python export_jina_ocr.py inspect --snapshot /path/to/jina-ocr-v1

Needs: torch, transformers (the version the snapshot's remote code was written for), onnx, onnxruntime, pillow, numpy,
and a local snapshot of https://huggingface.co/jinaai/jina-ocr-v1 (weights CC BY-NC 4.0). The model's own code is
loaded with trust_remote_code from the local snapshot only. Nothing here runs at inference time in Recto.

The graphs are built by graph_export.py from the model object, in either cache form (`--cache-form views` for CPU,
`shared-buffer` for GPUs; docs/decoding.md). Not run on the real weights where Recto is built (they cannot be
downloaded there); the same export code runs on every test run on a tiny random model with DeepSeek-OCR's module layout
(testing/tiny_deepseek_ocr.py, exportRoundTrip.test.ts). Module paths follow DeepSeek-OCR's modeling code (sam_model,
vision_model, projector, image_newline, view_seperator, language model `model.layers`, DeepseekV2MoE); the FastMTP
head's attribute names are not published in a form we could check, so `inspect` prints the module tree and
`--mtp-module` selects it. Check both against the snapshot before the first export.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pack_manifest import CACHE_FORMS, JINA_OCR_LICENCE, PackDescription, draft_vocabulary_ids  # noqa: E402


def load_model(snapshot: str):
    import torch
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(snapshot, trust_remote_code=True, local_files_only=True)
    model = AutoModel.from_pretrained(snapshot, trust_remote_code=True, local_files_only=True, torch_dtype=torch.float32)
    return model.eval(), tokenizer


def cmd_export(opts):
    from graph_export import export_pack  # torch is imported there

    model, tokenizer = load_model(opts.snapshot)
    config = model.config.language_config if hasattr(model.config, "language_config") else model.config
    cfg = config if isinstance(config, dict) else config.to_dict()
    vocab = tokenizer.get_vocab()
    # Dims, files and the cache form are filled in by export_pack from the model object itself.
    description = PackDescription(
        name="jina-ocr-v1", version=opts.version, licence=JINA_OCR_LICENCE, vocab=0, hidden=0, layers=0, heads=0,
        bos=tokenizer.bos_token_id, eos=tokenizer.eos_token_id, image=vocab["<image>"],
        exempt_token_ids=[vocab["<td>"], vocab["</td>"]], max_positions=cfg.get("max_position_embeddings", 8192),
        draft_depth=opts.draft_depth, description="Exported with native-models/export/export_jina_ocr.py")
    draft_vocabulary = None
    if opts.draft_vocab:
        # ids < N (BPE merge order ≈ frequency) + every added token (specials, <td>, grounding tokens) + EOS.
        added = set(tokenizer.get_added_vocab().values()) | set(tokenizer.all_special_ids)
        draft_vocabulary = draft_vocabulary_ids(model.lm_head.out_features, opts.draft_vocab, added, tokenizer.eos_token_id)
        print(f"draft head over {len(draft_vocabulary)} ids: < {opts.draft_vocab} and {len(draft_vocabulary) - min(opts.draft_vocab, model.lm_head.out_features)} added tokens above")
    export_pack(model, opts.out, description, lambda path: tokenizer.backend_tokenizer.save(path),
                cache_form=opts.cache_form, mtp_module=opts.mtp_module, mtp_concat=opts.mtp_concat,
                moe_form=opts.moe_form, draft_vocabulary=draft_vocabulary)
    print(f"wrote {opts.out} ({opts.cache_form})")


def cmd_parity(opts):
    """ONNX vs PyTorch: logits on one page (max |Δ|, top-1 agreement), then greedy text on each page."""
    import numpy as np
    import onnxruntime as ort
    import torch

    model, tokenizer = load_model(opts.snapshot)
    core = model.model if hasattr(model, "model") else model
    sessions = {r: ort.InferenceSession(os.path.join(opts.pack, f"{r}.onnx"), providers=["CPUExecutionProvider"]) for r in ("embed", "decoder")}
    L = len(core.layers)
    nh = core.layers[0].self_attn.num_heads
    dh = core.layers[0].self_attn.head_dim if hasattr(core.layers[0].self_attn, "head_dim") else model.config.hidden_size // nh

    def prompt_embeds(page):
        """The prompt embeddings exactly as PyTorch feeds them to the first decoder layer (visual tokens scattered in
        by the model's own preprocessing), captured with a pre-hook during the snapshot's own `infer`."""
        captured = []

        def hook(_module, args, kwargs):
            hidden = args[0] if args else kwargs["hidden_states"]
            if not captured:
                captured.append(hidden.detach().float().cpu())
            raise StopIteration  # the prompt is all we need

        handle = core.layers[0].register_forward_pre_hook(hook, with_kwargs=True)
        try:
            model.infer(tokenizer, prompt="<image>\n<|grounding|>Convert the document to markdown. ", image_file=page,
                        output_path=opts.scratch, base_size=1024, image_size=640, crop_mode=True, save_results=False,
                        eval_mode=True)
        except StopIteration:
            pass
        finally:
            handle.remove()
        if not captured:
            raise SystemExit(f"parity: could not capture the prompt embeddings of {page}; check `inspect`")
        return captured[0]

    def torch_greedy(embeds, steps):
        from transformers.cache_utils import DynamicCache

        cache, tokens, x, start = DynamicCache(), [], embeds, 0
        with torch.no_grad():
            for _ in range(steps):
                positions = torch.arange(x.shape[1])[None, :] + start
                out = core(inputs_embeds=x, past_key_values=cache, position_ids=positions, use_cache=True, return_dict=True)
                start += x.shape[1]
                token = int(model.lm_head(out.last_hidden_state[:, -1]).argmax())
                if token == tokenizer.eos_token_id:
                    break
                tokens.append(token)
                x = core.embed_tokens(torch.tensor([[token]]))
        return tokens

    with open(os.path.join(opts.pack, "manifest.json"), encoding="utf-8") as handle:
        cache_form = json.load(handle).get("cacheForm", "views")

    def onnx_greedy(embeds, steps):
        # The runtime's cache schemes with numpy. views: one buffer per cache, past = a view of the first P positions,
        # the new rows copied in after each run (Recto's runtime has onnxruntime write them in place). shared-buffer:
        # [1, nh, capacity, dh] buffers with the valid length as inputs, the present fed back as the next past.
        capacity = embeds.shape[1] + steps
        shape = (1, capacity, nh, dh) if cache_form == "views" else (1, nh, capacity, dh)
        caches = [np.zeros(shape, np.float32) for _ in range(2 * L)]
        tokens, x, length = [], embeds, 0
        for _ in range(steps):
            count = x.shape[1]
            if cache_form == "views":
                feeds = {f"past.{i}.{kv}": caches[2 * i + j][:, :length] for i in range(L) for j, kv in enumerate(("key", "value"))}
            else:
                feeds = {f"past.{i}.{kv}": caches[2 * i + j] for i in range(L) for j, kv in enumerate(("key", "value"))}
                feeds.update(seqlens_k=np.array([length + count - 1], np.int32), total_sequence_length=np.array(length + count, np.int32))
            out = sessions["decoder"].run(None, {"inputs_embeds": x, **feeds})
            for n, rows in enumerate(out[3:]):
                if cache_form == "views":
                    caches[n][:, length:length + count] = rows
                else:
                    caches[n] = rows
            length += count
            token = int(out[1][0, -1, 0])  # candidate_ids: the largest logit first
            if token == tokenizer.eos_token_id:
                break
            tokens.append(token)
            x = sessions["embed"].run(None, {"input_ids": np.array([[token]], np.int64)})[0]
        return tokens

    first = prompt_embeds(opts.pages[0])
    with torch.no_grad():
        torch_logits = model.lm_head(core(inputs_embeds=first, return_dict=True).last_hidden_state)[0, -1].numpy()
    if cache_form == "views":
        empty = {f"past.{i}.{kv}": np.zeros((1, 0, nh, dh), np.float32) for i in range(L) for kv in ("key", "value")}
    else:
        empty = {f"past.{i}.{kv}": np.zeros((1, nh, first.shape[1], dh), np.float32) for i in range(L) for kv in ("key", "value")}
        empty.update(seqlens_k=np.array([first.shape[1] - 1], np.int32), total_sequence_length=np.array(first.shape[1], np.int32))
    onnx_out = sessions["decoder"].run(None, {"inputs_embeds": first.numpy(), **empty})
    onnx_values, onnx_ids = onnx_out[0][0, -1], onnx_out[1][0, -1]
    top = np.sort(torch_logits)[::-1][: len(onnx_values)]
    print(f"page 1 candidates: max |Δ| of the top {len(onnx_values)} logits = {np.abs(top - onnx_values).max():.3e}, "
          f"top-1 equal: {int(torch_logits.argmax()) == int(onnx_ids[0])}")
    # Plain greedy on both sides (the no-repeat n-gram rule is identical in both and would only hide divergence).
    failures = 0
    for page in opts.pages:
        embeds = prompt_embeds(page)
        ref_tokens = torch_greedy(embeds, opts.tokens)
        got = onnx_greedy(embeds.numpy(), opts.tokens)
        same = ref_tokens == got
        failures += not same
        print(f"{page}: greedy text {'identical' if same else 'DIFFERENT'} ({len(got)} tokens)")
    sys.exit(1 if failures else 0)


def cmd_inspect(opts):
    model, _ = load_model(opts.snapshot)
    for name, module in model.named_modules():
        if name.count(".") <= 2:
            print(f"{name:60s} {type(module).__name__}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("export")
    p.add_argument("--snapshot", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--version", default="1.0")
    p.add_argument("--draft-depth", type=int, default=3)
    p.add_argument("--mtp-module", default="model.mtp", help="dotted path of the FastMTP head (see `inspect`)")
    p.add_argument("--mtp-concat", choices=("embedding-first", "hidden-first"), default="embedding-first",
                   help="order of eh_proj's inputs: [enorm(embedding); hnorm(hidden)] (vLLM's DeepSeek-MTP) or the reverse "
                        "(the DeepSeek-V3 paper); check the snapshot's MTP code")
    p.add_argument("--cache-form", choices=CACHE_FORMS, default="views",
                   help="views: past read in place (CPU); shared-buffer: GroupQueryAttention over capacity buffers (GPU)")
    p.add_argument("--moe-form", choices=("fused", "gather"), default="fused",
                   help="routed experts as one com.microsoft MoE node per layer (fused; a gate the op cannot express "
                        "falls back to gather, printed per layer) or as a Gather of the picked experts' weights")
    p.add_argument("--draft-vocab", type=int, default=0, metavar="N",
                   help="FastMTP's draft head scores only ids < N plus every added token and EOS (a compressed draft "
                        "vocabulary; lossless: the decoder verifies every draft). Default: the full vocabulary. Its effect "
                        "on acceptance is unmeasured here: measure it on real pages (README)")
    p = sub.add_parser("parity")
    p.add_argument("--snapshot", required=True)
    p.add_argument("--pack", required=True)
    p.add_argument("--pages", nargs="+", required=True)
    p.add_argument("--tokens", type=int, default=256)
    p.add_argument("--scratch", default="/tmp/jina-ocr-parity", help="output folder the snapshot's infer() insists on")
    p = sub.add_parser("inspect")
    p.add_argument("--snapshot", required=True)
    opts = parser.parse_args()
    {"export": cmd_export, "parity": cmd_parity, "inspect": cmd_inspect}[opts.command](opts)


if __name__ == "__main__":
    main()
