#!/usr/bin/env python3
"""Export jina-ocr-v1 (DeepSeek-OCR encoder + DeepSeek-V2 MoE decoder + FastMTP draft head) to a Recto model pack.

    python export_jina_ocr.py export --snapshot /path/to/jina-ocr-v1 --out /path/to/pack
    python export_jina_ocr.py parity --snapshot /path/to/jina-ocr-v1 --pack /path/to/pack --pages p1.png p2.png p3.png
    python export_jina_ocr.py inspect --snapshot /path/to/jina-ocr-v1

Needs: torch, transformers (the version the snapshot's remote code was written for), onnx, onnxruntime, pillow, numpy,
and a local snapshot of https://huggingface.co/jinaai/jina-ocr-v1 (weights CC BY-NC 4.0). The model's own code is
loaded with trust_remote_code from the local snapshot only. Nothing here runs at inference time in Recto.

NOT RUN on the machines Recto is built on (no weights, no torch there). Module paths below follow DeepSeek-OCR's
modeling code (sam_model, vision_model, projector, image_newline, view_seperator, language model `model.layers`,
DeepseekV2MoE); the FastMTP head's attribute names are not published in a form we could check, so `inspect` prints the
module tree and `--mtp-module` selects it. Check both against the snapshot before the first export.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pack_manifest import JINA_OCR_LICENCE, PackDescription, minimum_candidates, write_manifest  # noqa: E402

OPSET = 17
# DeepSeek-OCR's no-repeat rule: n = 30 in a window of 90 (PackDescription defaults) → 62 candidates per row.
CANDIDATES = minimum_candidates(PackDescription.ngram_size, PackDescription.window_size)


def load_model(snapshot: str):
    import torch
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(snapshot, trust_remote_code=True, local_files_only=True)
    model = AutoModel.from_pretrained(snapshot, trust_remote_code=True, local_files_only=True, torch_dtype=torch.float32)
    return model.eval(), tokenizer


def resolve(module, dotted: str):
    for part in dotted.split("."):
        module = getattr(module, part)
    return module


# ----------------------------------------------------------------------------------------------------------------------
# Export-friendly MoE: gather only the experts some token picked (the cost follows k, not the expert count), the same
# formulation as Recto's reference pack (native-models/vlm/pack/graphParts.ts). Replaces DeepseekV2MoE.forward for tracing; numerics equal the original
# (softmax scores, greedy top-k, no renormalisation, routed_scaling_factor, plus shared experts).
# ----------------------------------------------------------------------------------------------------------------------
def patch_moe_for_export(language_model):
    import torch
    import torch.nn.functional as F

    for layer in language_model.layers:
        moe = layer.mlp
        if not hasattr(moe, "experts"):
            continue  # dense layer (first_k_dense_replace)
        moe.register_buffer("w_gate", torch.stack([e.gate_proj.weight.t() for e in moe.experts]), persistent=False)  # [E, H, F]
        moe.register_buffer("w_up", torch.stack([e.up_proj.weight.t() for e in moe.experts]), persistent=False)
        moe.register_buffer("w_down", torch.stack([e.down_proj.weight.t() for e in moe.experts]), persistent=False)  # [E, F, H]

        def forward(hidden_states, moe=moe):
            shape = hidden_states.shape  # [B, T, H]
            x = hidden_states.reshape(-1, shape[-1])  # [N, H]
            scores = F.softmax(F.linear(x, moe.gate.weight), dim=-1)  # [N, E]
            weights, index = torch.topk(scores, moe.gate.top_k, dim=-1)  # [N, k]
            if getattr(moe.gate, "norm_topk_prob", False) and moe.gate.top_k > 1:
                weights = weights / (weights.sum(dim=-1, keepdim=True) + 1e-20)
            weights = weights * getattr(moe.gate, "routed_scaling_factor", 1.0)
            # Router weight per (token, expert), 0 where not picked; touch only experts some token picked (U of them).
            routing = torch.zeros_like(scores).scatter(1, index, weights)  # [N, E]
            union = torch.nonzero(routing.sum(dim=0) > 0).reshape(-1)  # [U]
            gate = x[None] @ moe.w_gate[union]  # [U, N, F]
            up = x[None] @ moe.w_up[union]
            routed = (F.silu(gate) * up) @ moe.w_down[union]  # [U, N, H]
            routed = (routed * routing[:, union].t()[..., None]).sum(dim=0)  # [N, H]
            out = routed.reshape(shape)
            if getattr(moe, "shared_experts", None) is not None:
                out = out + moe.shared_experts(hidden_states)
            return out

        moe.forward = forward


# ----------------------------------------------------------------------------------------------------------------------
# Caches read in place (pack format 2, see native-models/vlm/pack/packContract.ts): the past comes in position-major
# ([1, P, nh, dh], a view of the runtime's buffer) and is never concatenated, transposed or sliced; only the T new
# positions' keys and values go out. Per-head scores over the past come from one matmul against a block-diagonal query
# matrix (graphParts.ts PastSide 'block-diagonal'), so the exported graph copies nothing. The reference packs now read
# the past with com.microsoft FusedMatMul transBatchB instead (only the needed multiply-adds; docs/decoding.md).
# Layer maths follows DeepseekV2DecoderLayer (pre-norm, residual adds) and DeepseekV2Attention (MHA with RoPE).
# ----------------------------------------------------------------------------------------------------------------------
def past_positions(past_key, inputs_embeds):
    import torch

    start = past_key.shape[1]
    return torch.arange(inputs_embeds.shape[1], device=inputs_embeds.device)[None, :] + start


def attention_in_place(attn, h, past_k, past_v, positions):
    """h [1, T, H] → (attention output [1, T, H], new keys [1, T, nh, dh], new values [1, T, nh, dh])."""
    import sys as _sys

    import torch

    modeling = _sys.modules[type(attn).__module__]
    nh, T, H = attn.num_heads, h.shape[1], h.shape[2]
    dh = H // nh
    q = attn.q_proj(h).view(1, T, nh, dh).transpose(1, 2)  # [1, nh, T, dh]
    k = attn.k_proj(h).view(1, T, nh, dh).transpose(1, 2)
    v = attn.v_proj(h).view(1, T, nh, dh)
    cos, sin = attn.rotary_emb(v, seq_len=positions.shape[1] + past_k.shape[1])
    q, k = modeling.apply_rotary_pos_emb(q, k, cos, sin, positions)
    q = q * (attn.softmax_scale if hasattr(attn, "softmax_scale") else dh ** -0.5)
    new_k = k.transpose(1, 2)  # [1, T, nh, dh], what the runtime writes into its buffer at offset P
    # Past side, read in place: [P, H] views; block-diagonal Q̂ [H, nh·T]; P·V keeps each head's own dh columns.
    P = past_k.shape[1]
    k_past, v_past = past_k.reshape(P, H), past_v.reshape(P, H)
    q_t = q.permute(1, 3, 0, 2).reshape(nh * dh, 1, T)  # [H, 1, T]: row h·dh + d, column t
    block = torch.eye(nh, dtype=h.dtype).repeat_interleave(dh, dim=0)[:, :, None]  # [H, nh, 1]
    q_hat = (q_t * block).reshape(H, nh * T)
    scores_past = (k_past @ q_hat).t().reshape(nh, T, P)
    q_heads, k_new, v_new = q[0], k[0], v.transpose(1, 2)[0]  # [nh, T, dh]
    causal = torch.full((T, T), -1e9, dtype=h.dtype).triu(1)
    scores_new = q_heads @ k_new.transpose(1, 2) + causal
    probs = torch.softmax(torch.cat([scores_past, scores_new], dim=-1), dim=-1)
    probs_past, probs_new = probs[..., :P], probs[..., P:]
    mixed = (probs_past @ v_past).reshape(nh, T, nh, dh)
    own = torch.eye(nh, dtype=h.dtype)[:, None, :, None]
    context = (mixed * own).sum(dim=2) + probs_new @ v_new  # [nh, T, dh]
    out = attn.o_proj(context.transpose(0, 1).reshape(1, T, H))
    return out, new_k, v


def layer_in_place(layer, x, past_k, past_v, positions):
    attn, new_k, new_v = attention_in_place(layer.self_attn, layer.input_layernorm(x), past_k, past_v, positions)
    x = x + attn
    return x + layer.mlp(layer.post_attention_layernorm(x)), new_k, new_v


def candidates(logits):
    """The C largest logits per row and their ids (TopK; onnxruntime breaks ties by the lower id)."""
    import torch

    values, ids = torch.topk(logits, CANDIDATES, dim=-1, largest=True, sorted=True)
    return values, ids.to(torch.int32)


def make_wrappers(model, mtp_module: str):
    import torch
    from torch import nn

    core = model.model if hasattr(model, "model") else model
    language = core  # DeepseekOCRModel derives from DeepseekV2Model: embed_tokens, layers, norm
    lm_head = model.lm_head

    class Vision(nn.Module):
        """pixel_values [N, 3, S, S] → image_features [N, q, q, H], image_newline [H], view_separator [H]."""

        def forward(self, pixel_values):
            sam = core.sam_model(pixel_values)
            clip = core.vision_model(pixel_values, sam)
            features = torch.cat((clip[:, 1:], sam.flatten(2).permute(0, 2, 1)), dim=-1)
            features = core.projector(features)  # [N, q*q, H]
            side = int(features.shape[1] ** 0.5)
            return features.reshape(features.shape[0], side, side, features.shape[-1]), core.image_newline * 1, core.view_seperator * 1

    class Embed(nn.Module):
        def forward(self, input_ids):
            return language.embed_tokens(input_ids)

    class Decoder(nn.Module):
        """inputs_embeds [1, T, H] + past.{i}.key/value [1, P, nh, dh] (views of the runtime's cache buffers) →
        candidate_logits / candidate_ids [1, T, C], last_hidden_state [1, T, H], new.{i}.key/value [1, T, nh, dh]."""

        def forward(self, inputs_embeds, *past):
            positions = past_positions(past[0], inputs_embeds)
            x, new = inputs_embeds, []
            for i, layer in enumerate(language.layers):
                x, k, v = layer_in_place(layer, x, past[2 * i], past[2 * i + 1], positions)
                new += [k, v]
            hidden = language.norm(x)  # after the final norm: what the draft block consumes
            return (*candidates(lm_head(hidden)), hidden, *new)

    mtp = resolve(model, mtp_module)

    class Draft(nn.Module):
        """The FastMTP block (DeepSeek-V3 MTP shape: enorm, hnorm, eh_proj, one decoder layer, shared head).
        inputs_embeds [1, T, H], hidden_states [1, T, H], past.0.key/value [1, P, nh, dh] → candidate_logits,
        candidate_ids, hidden_states_out, new.0.key/value."""

        def forward(self, inputs_embeds, hidden_states, past_key, past_value):
            positions = past_positions(past_key, inputs_embeds)
            x = mtp.eh_proj(torch.cat([mtp.hnorm(hidden_states), mtp.enorm(inputs_embeds)], dim=-1))
            x, k, v = layer_in_place(mtp.block, x, past_key, past_value, positions)
            head_norm = getattr(mtp, "shared_head_norm", None) or getattr(mtp, "norm")
            return (*candidates(lm_head(head_norm(x))), x, k, v)

    return Vision(), Embed(), Decoder(), Draft()


def export_graph(module, args, path, input_names, output_names, dynamic_axes):
    import onnx
    import torch

    tmp = path + ".tmp.onnx"
    torch.onnx.export(module, args, tmp, opset_version=OPSET, input_names=input_names, output_names=output_names,
                      dynamic_axes=dynamic_axes, do_constant_folding=True, dynamo=False)
    model = onnx.load(tmp, load_external_data=True)
    data = os.path.basename(path) + ".data"
    onnx.save_model(model, path, save_as_external_data=True, all_tensors_to_one_file=True, location=data, size_threshold=1 << 20)
    for leftover in os.listdir(os.path.dirname(tmp) or "."):
        if leftover.startswith(os.path.basename(tmp)):
            os.remove(os.path.join(os.path.dirname(tmp) or ".", leftover))
    return [os.path.basename(path)] + ([data] if os.path.exists(os.path.join(os.path.dirname(path), data)) else [])


def cmd_export(opts):
    import torch

    model, tokenizer = load_model(opts.snapshot)
    config = model.config.language_config if hasattr(model.config, "language_config") else model.config
    cfg = config if isinstance(config, dict) else config.to_dict()
    H, L, nh = cfg["hidden_size"], cfg["num_hidden_layers"], cfg["num_attention_heads"]
    dh = H // nh
    core = model.model if hasattr(model, "model") else model
    patch_moe_for_export(core)
    vision, embed, decoder, draft = make_wrappers(model, opts.mtp_module)
    os.makedirs(opts.out, exist_ok=True)
    files = {}
    with torch.no_grad():
        files["vision"] = export_graph(vision, (torch.zeros(1, 3, 1024, 1024),), os.path.join(opts.out, "vision.onnx"),
                                       ["pixel_values"], ["image_features", "image_newline", "view_separator"],
                                       {"pixel_values": {0: "views", 2: "size", 3: "size"}, "image_features": {0: "views", 1: "rows", 2: "cols"}})
        files["embed"] = export_graph(embed, (torch.zeros(1, 4, dtype=torch.long),), os.path.join(opts.out, "embed.onnx"),
                                      ["input_ids"], ["inputs_embeds"], {"input_ids": {1: "tokens"}, "inputs_embeds": {1: "tokens"}})
        past = [torch.zeros(1, 3, nh, dh) for _ in range(2 * L)]
        past_names = [f"past.{i}.{kv}" for i in range(L) for kv in ("key", "value")]
        new_names = [f"new.{i}.{kv}" for i in range(L) for kv in ("key", "value")]
        rows = {n: {1: "tokens"} for n in ("inputs_embeds", "candidate_logits", "candidate_ids", "last_hidden_state", *new_names)}
        axes = {**rows, **{n: {1: "past"} for n in past_names}}
        files["decoder"] = export_graph(decoder, (torch.zeros(1, 2, H), *past), os.path.join(opts.out, "decoder.onnx"),
                                        ["inputs_embeds", *past_names], ["candidate_logits", "candidate_ids", "last_hidden_state", *new_names], axes)
        draft_rows = ("inputs_embeds", "hidden_states", "candidate_logits", "candidate_ids", "hidden_states_out", "new.0.key", "new.0.value")
        draft_axes = {**{n: {1: "tokens"} for n in draft_rows}, "past.0.key": {1: "past"}, "past.0.value": {1: "past"}}
        files["draft"] = export_graph(draft, (torch.zeros(1, 2, H), torch.zeros(1, 2, H), torch.zeros(1, 3, nh, dh), torch.zeros(1, 3, nh, dh)),
                                      os.path.join(opts.out, "draft.onnx"), ["inputs_embeds", "hidden_states", "past.0.key", "past.0.value"],
                                      ["candidate_logits", "candidate_ids", "hidden_states_out", "new.0.key", "new.0.value"], draft_axes)
    tokenizer.backend_tokenizer.save(os.path.join(opts.out, "tokenizer.json"))
    files["tokenizer"] = ["tokenizer.json"]
    role_files = {role: [names[0]] for role, names in files.items()}
    data = [n for names in files.values() for n in names[1:]]
    if data:
        role_files["data"] = data
    vocab = tokenizer.get_vocab()
    write_manifest(opts.out, PackDescription(
        name="jina-ocr-v1", version=opts.version, licence=JINA_OCR_LICENCE, vocab=cfg["vocab_size"], hidden=H, layers=L,
        heads=nh, bos=tokenizer.bos_token_id, eos=tokenizer.eos_token_id, image=vocab["<image>"],
        exempt_token_ids=[vocab["<td>"], vocab["</td>"]], max_positions=cfg.get("max_position_embeddings", 8192),
        draft_depth=opts.draft_depth, description="Exported with native-models/export/export_jina_ocr.py", files=role_files))
    print(f"wrote {opts.out}")


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

    def onnx_greedy(embeds, steps):
        # The runtime's cache scheme with numpy: one buffer per cache, past = a view of the first P positions, the new
        # positions copied in after each run (Recto's runtime has onnxruntime write them in place).
        capacity = embeds.shape[1] + steps
        caches = [np.zeros((1, capacity, nh, dh), np.float32) for _ in range(2 * L)]
        tokens, x, length = [], embeds, 0
        for _ in range(steps):
            feeds = {f"past.{i}.{kv}": caches[2 * i + j][:, :length] for i in range(L) for j, kv in enumerate(("key", "value"))}
            out = sessions["decoder"].run(None, {"inputs_embeds": x, **feeds})
            count = x.shape[1]
            for n, rows in enumerate(out[3:]):
                caches[n][:, length:length + count] = rows
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
    empty = {f"past.{i}.{kv}": np.zeros((1, 0, nh, dh), np.float32) for i in range(L) for kv in ("key", "value")}
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
