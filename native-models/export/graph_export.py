"""A DeepSeek-OCR-shaped model object → Recto's four pack graphs and manifest, in either cache form.

`export_pack(model, out, ...)` is what `export_jina_ocr.py export` runs on the real jina-ocr-v1 weights and what the
round-trip test runs on a tiny random model of the same module layout (testing/tiny_deepseek_ocr.py): one code path.
Module paths (DeepSeek-OCR's modeling code): `sam_model`, `vision_model`, `projector`, `image_newline`,
`view_seperator`, language model `embed_tokens`, `layers[i]` (`self_attn.{q,k,v,o}_proj`, `rotary_emb`, `num_heads`,
`softmax_scale`; `input_layernorm`, `post_attention_layernorm`, `mlp` dense or DeepseekV2MoE), `norm`, `lm_head`, and
the FastMTP head (`enorm`, `hnorm`, `eh_proj`, `block`, `norm` or `shared_head_norm`) at `mtp_module`.
"""
from __future__ import annotations

import inspect
import os
import sys

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attention_ops import MS_DOMAIN, PLACEHOLDER_DOMAIN, GroupQueryAttention, PastMix, PastScores, inline_past_side  # noqa: E402
from moe_ops import MOE_FORMS, patch_moe  # noqa: E402
from pack_manifest import CACHE_FORMS, PackDescription, minimum_candidates, write_manifest  # noqa: E402

OPSET = 17
# Below this many bytes a tensor stays inside the .onnx file; larger ones go to `<graph>.onnx.data`.
EXTERNAL_DATA_THRESHOLD = 1 << 20
# How the FastMTP head joins its two normed inputs before eh_proj. DeepSeek-V3-style MTP implementations that load
# real weights (vLLM's and SGLang's DeepSeek-MTP) put the token embedding first: eh_proj([enorm(e); hnorm(h)]); the
# DeepSeek-V3 paper writes the hidden state first. jina-ocr-v1's head is not published in a form we could check.
MTP_CONCAT_ORDERS = ("embedding-first", "hidden-first")
# Dummy sizes the graphs are traced with (every such axis is dynamic): new tokens, past length, buffer capacity.
TRACE_TOKENS, TRACE_PAST, TRACE_CAPACITY = 2, 3, 8
# The draft graph's int32 [Vd] list of the ids its head scores, when the draft vocabulary is compressed.
DRAFT_VOCABULARY_INITIALIZER = "draft_vocabulary"


def resolve(module, dotted: str):
    for part in dotted.split("."):
        module = getattr(module, part)
    return module


def language_core(model):
    """DeepseekOCRModel (derives from DeepseekV2Model: embed_tokens, layers, norm) under the causal-LM wrapper."""
    return model.model if hasattr(model, "model") else model


def patch_moe_for_export(model, mtp_module: str, moe_form: str):
    """Every DeepseekV2MoE layer — the decoder's and, where it is one, the FastMTP block's — in the export form
    `moe_form` (moe_ops.py: 'fused' com.microsoft MoE where the gate allows, else 'gather'). Prints the form each
    layer got; returns the lines."""
    core = language_core(model)
    hidden = core.embed_tokens.embedding_dim
    layers = [(f"decoder layer {i}", layer) for i, layer in enumerate(core.layers)]
    layers.append((f"draft block ({mtp_module}.block)", resolve(model, mtp_module).block))
    lines = []
    for name, layer in layers:
        moe = layer.mlp
        if not hasattr(moe, "experts"):
            continue  # a dense layer (first_k_dense_replace)
        lines.append(f"{name}: {patch_moe(moe, moe_form, hidden)}")
        print(f"MoE {lines[-1]}")
    return lines


def rotary_tables(attn, like):
    """cos / sin for every position the model supports, computed once per graph (every layer's rotary_emb is built
    from the same config) and gathered at the new tokens' positions inside the graph."""
    rotary = attn.rotary_emb
    return rotary(like, seq_len=rotary.max_seq_len_cached)


def project(attn, h, positions, cos, sin):
    """h [1, T, H] → q (RoPE applied, not scaled), k (RoPE applied) [1, nh, T, dh] and v [1, T, nh, dh], with the
    model's own `apply_rotary_pos_emb` (DeepSeek-V2's interleaves the rotary half before rotating)."""
    modeling = sys.modules[type(attn).__module__]
    nh, T, H = attn.num_heads, h.shape[1], h.shape[2]
    dh = H // nh
    q = attn.q_proj(h).view(1, T, nh, dh).transpose(1, 2)
    k = attn.k_proj(h).view(1, T, nh, dh).transpose(1, 2)
    v = attn.v_proj(h).view(1, T, nh, dh)
    q, k = modeling.apply_rotary_pos_emb(q, k, cos, sin, positions)
    return q, k, v


def softmax_scale(attn):
    return float(attn.softmax_scale) if hasattr(attn, "softmax_scale") else (attn.q_proj.out_features // attn.num_heads) ** -0.5


def attention_views(attn, h, cache, positions, cos, sin):
    """'views' (graphParts.ts `attention`, past side 'strided'): cache = (past_key, past_value) [1, P, nh, dh], read in
    place by PastScores / PastMix; scores over the past and over the T new keys joined for one softmax ([nh, T, P + T],
    small). Returns (output [1, T, H], (new_key, new_value) [1, T, nh, dh]) — the rows the runtime writes at offset P."""
    past_key, past_value = cache
    q, k, v = project(attn, h, positions, cos, sin)
    nh, T = q.shape[1], q.shape[2]
    q_heads = q[0] * softmax_scale(attn)  # [nh, T, dh]
    k_new, v_new = k[0], v.transpose(1, 2)[0]  # [nh, T, dh]
    local = torch.arange(T)
    causal = (local[None, :] > local[:, None]).to(h.dtype) * -1e9  # new query i sees new key j ≤ i
    scores_new = q_heads @ k_new.transpose(1, 2) + causal  # [nh, T, T]
    probs = torch.softmax(torch.cat([PastScores.apply(q_heads, past_key), scores_new], dim=-1), dim=-1)
    P = past_key.shape[1]
    context = PastMix.apply(probs[..., :P], past_value) + probs[..., P:] @ v_new  # [nh, T, dh]
    out = attn.o_proj(context.transpose(0, 1).reshape(1, T, nh * k.shape[3]))
    return out, (k.transpose(1, 2), v)


def attention_shared_buffer(attn, h, cache, positions, cos, sin):
    """'shared-buffer' (graphParts.ts `sharedBufferAttention`): cache = (past_key, past_value, seqlens_k,
    total_sequence_length); GroupQueryAttention writes the new rows into the [1, nh, capacity, dh] buffers in place.
    Returns (output [1, T, H], (present_key, present_value))."""
    past_key, past_value, seqlens_k, total = cache
    q, k, v = project(attn, h, positions, cos, sin)
    T, H = h.shape[1], h.shape[2]
    flat = lambda x: x.transpose(1, 2).reshape(1, T, H)  # noqa: E731  [1, nh, T, dh] → [1, T, H]
    context, present_key, present_value = GroupQueryAttention.apply(
        flat(q), flat(k), v.reshape(1, T, H), past_key, past_value, seqlens_k, total, attn.num_heads, softmax_scale(attn))
    return attn.o_proj(context), (present_key, present_value)


ATTENTION = {"views": attention_views, "shared-buffer": attention_shared_buffer}


def layer_forward(layer, x, attention, cache, positions, cos, sin):
    """DeepseekV2DecoderLayer: pre-norm attention and FFN with residual adds."""
    attn, written = attention(layer.self_attn, layer.input_layernorm(x), cache, positions, cos, sin)
    x = x + attn
    return x + layer.mlp(layer.post_attention_layernorm(x)), written


def new_positions(cache_form, inputs_embeds, lengths):
    """Positions of the T new tokens, P … P + T − 1: P is the past view's length ('views') or the valid length input
    minus T ('shared-buffer'); computed in the graph, nothing rebuilt on the host per step."""
    T = inputs_embeds.shape[1]
    start = lengths.shape[1] if cache_form == "views" else lengths.to(torch.int64) - T
    return (torch.arange(T) + start)[None, :]


def candidates(logits, count):
    """The C largest logits per row and their ids (TopK, sorted; onnxruntime breaks ties by the lower id)."""
    values, ids = torch.topk(logits, count, dim=-1, largest=True, sorted=True)
    return values, ids.to(torch.int32)


class DraftHead(nn.Module):
    """The FastMTP draft head over a compressed vocabulary: `lm_head`'s rows of the sorted id list `ids` ([Vd, H]),
    TopK over those Vd logits, then the list gathered at TopK's positions, so candidate ids are real ids (lower id
    first on ties, as the list is ascending). The list becomes the draft graph's int32 initializer `draft_vocabulary`."""

    def __init__(self, lm_head: nn.Linear, ids, count: int):
        super().__init__()
        rows = torch.tensor(list(ids), dtype=torch.long)
        self.weight = nn.Parameter(lm_head.weight.detach()[rows].clone(), requires_grad=False)
        self.bias = None if lm_head.bias is None else nn.Parameter(lm_head.bias.detach()[rows].clone(), requires_grad=False)
        self.register_buffer("vocabulary", rows.to(torch.int32))
        self.count = count

    def forward(self, x):
        values, positions = torch.topk(nn.functional.linear(x, self.weight, self.bias), self.count, dim=-1, largest=True, sorted=True)
        return values, self.vocabulary[positions]


def name_draft_vocabulary(model, ids):
    """Names the draft graph's int32 id list `draft_vocabulary` (the tracer gives it a generated name), so the pack
    states which ids its draft head scores where anyone can find them."""
    import numpy as np
    from onnx import numpy_helper

    wanted = np.asarray(ids, dtype=np.int32)
    matches = [t for t in model.graph.initializer
               if t.data_type == 6 and list(t.dims) == [len(wanted)] and np.array_equal(numpy_helper.to_array(t), wanted)]
    if len(matches) != 1:
        raise RuntimeError(f"draft graph: expected one int32 [{len(wanted)}] id list initializer, found {len(matches)}")
    old = matches[0].name
    matches[0].name = DRAFT_VOCABULARY_INITIALIZER
    for node in model.graph.node:
        node.input[:] = [DRAFT_VOCABULARY_INITIALIZER if name == old else name for name in node.input]
    return model


def make_wrappers(model, mtp_module: str, cache_form: str, count: int, mtp_concat: str, draft_vocabulary=None):
    core = language_core(model)
    lm_head = model.lm_head
    # The draft's head: the shared lm_head with candidates() over every id, or only over the compressed list.
    draft_head = DraftHead(lm_head, draft_vocabulary, count) if draft_vocabulary else (lambda x: candidates(lm_head(x), count))
    mtp = resolve(model, mtp_module)
    attention = ATTENTION[cache_form]

    def caches(flat, lengths):
        if cache_form == "views":
            return [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]
        seqlens_k, total = lengths
        return [(flat[i], flat[i + 1], seqlens_k, total) for i in range(0, len(flat), 2)]

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
            return core.embed_tokens(input_ids)

    class Decoder(nn.Module):
        """inputs_embeds [1, T, H], [seqlens_k, total_sequence_length,] past.{i}.key/value → candidate_logits /
        candidate_ids [1, T, C], last_hidden_state [1, T, H] (after the final norm), new.{i}.* or present.{i}.*."""

        def forward(self, inputs_embeds, *rest):
            lengths, flat = (rest[:2], rest[2:]) if cache_form == "shared-buffer" else ((), rest)
            positions = new_positions(cache_form, inputs_embeds, flat[0] if cache_form == "views" else lengths[1])
            cos, sin = rotary_tables(core.layers[0].self_attn, inputs_embeds)
            x, written = inputs_embeds, []
            for layer, cache in zip(core.layers, caches(flat, lengths)):
                x, kv = layer_forward(layer, x, attention, cache, positions, cos, sin)
                written += kv
            hidden = core.norm(x)  # what the draft block consumes
            return (*candidates(lm_head(hidden), count), hidden, *written)

    class Draft(nn.Module):
        """The FastMTP block (DeepSeek-V3 MTP shape: enorm, hnorm, eh_proj, one decoder layer, shared head):
        inputs_embeds [1, T, H], hidden_states [1, S, H] with hidden_rows [T] int64, [lengths,] past.0.key/value →
        candidate_logits, candidate_ids, hidden_states_out, the block's cache rows. hidden_states is an earlier run's
        hidden-state output as it came; the rows to pair with the embeddings are picked here (a Gather in the graph,
        pack format 3), so the runtime never slices them out on the host."""

        def forward(self, inputs_embeds, hidden_states, hidden_rows, *rest):
            hidden_states = torch.index_select(hidden_states, 1, hidden_rows)
            lengths, flat = (rest[:2], rest[2:]) if cache_form == "shared-buffer" else ((), rest)
            positions = new_positions(cache_form, inputs_embeds, flat[0] if cache_form == "views" else lengths[1])
            cos, sin = rotary_tables(mtp.block.self_attn, inputs_embeds)
            joined = [mtp.enorm(inputs_embeds), mtp.hnorm(hidden_states)]
            x = mtp.eh_proj(torch.cat(joined if mtp_concat == "embedding-first" else joined[::-1], dim=-1))
            x, kv = layer_forward(mtp.block, x, attention, caches(flat, lengths)[0], positions, cos, sin)
            head_norm = getattr(mtp, "shared_head_norm", None) or getattr(mtp, "norm")
            return (*draft_head(head_norm(x)), x, *kv)

    return Vision(), Embed(), Decoder(), Draft()


def export_graph(module, args, path, input_names, output_names, dynamic_axes, inline=None, custom_opsets=None):
    """Traces `module` to `path` (opset 17); tensors over EXTERNAL_DATA_THRESHOLD go to `<name>.data`. Returns the
    files written, graph first."""
    import onnx

    tmp = path + ".tmp.onnx"
    # The TorchScript exporter: the attention Functions' `symbolic`s are its mechanism. torch 1.13 (Debian's) has no
    # other and rejects a `dynamo` argument; newer torch has one and, from 2.9, defaults to the dynamo exporter.
    legacy = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
    torch.onnx.export(module, args, tmp, opset_version=OPSET, input_names=input_names, output_names=output_names,
                      dynamic_axes=dynamic_axes, do_constant_folding=True, custom_opsets=custom_opsets or {}, **legacy)
    model = constants_to_initializers(onnx.load(tmp, load_external_data=True))
    if inline:
        model = inline(model)
    data = os.path.basename(path) + ".data"
    onnx.save_model(model, path, save_as_external_data=True, all_tensors_to_one_file=True, location=data,
                    size_threshold=EXTERNAL_DATA_THRESHOLD)
    folder = os.path.dirname(tmp) or "."
    for leftover in os.listdir(folder):
        if leftover.startswith(os.path.basename(tmp)):
            os.remove(os.path.join(folder, leftover))
    return [os.path.basename(path)] + ([data] if os.path.exists(os.path.join(folder, data)) else [])


def constants_to_initializers(model):
    """The tracer bakes the weights it reaches through closures in as Constant nodes; they are written as initializers
    (what they are, and what onnxruntime turns them into at load anyway: the experts' fc1 / fc2, the projections).
    Constants that are graph outputs stay nodes."""
    outputs = {o.name for o in model.graph.output}
    nodes = []
    for node in model.graph.node:
        if node.op_type == "Constant" and [a.name for a in node.attribute] == ["value"] and node.output[0] not in outputs:
            tensor = type(node.attribute[0].t)()
            tensor.CopyFrom(node.attribute[0].t)
            tensor.name = node.output[0]
            model.graph.initializer.append(tensor)
        else:
            nodes.append(node)
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    return model


def cache_tensor_names(layers: int, cache_form: str):
    inputs = [f"past.{i}.{kv}" for i in range(layers) for kv in ("key", "value")]
    written = "new" if cache_form == "views" else "present"
    return inputs, [f"{written}.{i}.{kv}" for i in range(layers) for kv in ("key", "value")]


def cache_trace_args(cache_form, layers, heads, head_dim):
    """Dummy cache inputs to trace with, and their dynamic axes ('views': [1, past, nh, dh]; 'shared-buffer': lengths
    and [1, nh, capacity, dh])."""
    past, written = cache_tensor_names(layers, cache_form)
    if cache_form == "views":
        tensors = [torch.zeros(1, TRACE_PAST, heads, head_dim) for _ in past]
        axes = {**{n: {1: "past"} for n in past}, **{n: {1: "tokens"} for n in written}}
        return [], [], tensors, axes
    total = TRACE_PAST + TRACE_TOKENS
    lengths = [torch.tensor([total - 1], dtype=torch.int32), torch.tensor(total, dtype=torch.int32)]
    tensors = [torch.zeros(1, heads, TRACE_CAPACITY, head_dim) for _ in past]
    axes = {n: {2: "capacity"} for n in (*past, *written)}
    return ["seqlens_k", "total_sequence_length"], lengths, tensors, axes


def export_pack(model, out: str, description: PackDescription, write_tokenizer, *, cache_form: str = "views",
                mtp_module: str = "model.mtp", mtp_concat: str = "embedding-first", vision_size: int = 1024,
                moe_form: str = "fused", draft_vocabulary=None) -> dict:
    """Writes vision/embed/decoder/draft graphs, the tokenizer and manifest.json for `model` into `out`. `description`
    gives names, licence and special tokens (dims, files and cacheForm are filled in here); `write_tokenizer(path)`
    writes tokenizer.json. `draft_vocabulary`: the sorted token ids the draft head scores (FastMTP's compressed draft
    vocabulary, pack_manifest.draft_vocabulary_ids); None: every id. Returns the manifest."""
    if cache_form not in CACHE_FORMS:
        raise ValueError(f"cache form must be one of {', '.join(CACHE_FORMS)}, got {cache_form!r}")
    if mtp_concat not in MTP_CONCAT_ORDERS:
        raise ValueError(f"MTP concatenation order must be one of {', '.join(MTP_CONCAT_ORDERS)}, got {mtp_concat!r}")
    if moe_form not in MOE_FORMS:
        raise ValueError(f"MoE form must be one of {', '.join(MOE_FORMS)}, got {moe_form!r}")
    core = language_core(model)
    attn0 = core.layers[0].self_attn
    H, L, nh = core.embed_tokens.embedding_dim, len(core.layers), attn0.num_heads
    dh = H // nh
    count = minimum_candidates(description.ngram_size, description.window_size)
    vocab = model.lm_head.out_features
    if draft_vocabulary is not None:
        draft_vocabulary = list(draft_vocabulary)
        if draft_vocabulary != sorted(set(draft_vocabulary)) or not 0 <= draft_vocabulary[0] <= draft_vocabulary[-1] < vocab:
            raise ValueError(f"draft vocabulary must be distinct ids in 0 … {vocab - 1}, sorted ascending")
        if len(draft_vocabulary) < count:
            raise ValueError(f"draft vocabulary of {len(draft_vocabulary)} ids < {count} candidates per row")
    # The wrappers reach the weights through closures, so the tracer bakes them in as constants, which it refuses
    # for tensors that require grad (nothing is trained here).
    model.requires_grad_(False)
    patch_moe_for_export(model, mtp_module, moe_form)
    vision, embed, decoder, draft = make_wrappers(model, mtp_module, cache_form, count, mtp_concat, draft_vocabulary)
    inline = (lambda m: inline_past_side(m, nh, dh)) if cache_form == "views" else None
    draft_inline = inline
    if draft_vocabulary:
        draft_inline = lambda m: name_draft_vocabulary(inline(m) if inline else m, draft_vocabulary)  # noqa: E731
    # The non-standard domains the symbolics emit (the placeholders are replaced by `inline`; com.microsoft: the fused
    # MoE, GroupQueryAttention).
    opsets = {MS_DOMAIN: 1, **({PLACEHOLDER_DOMAIN: 1} if cache_form == "views" else {})}
    os.makedirs(out, exist_ok=True)
    files = {}
    rows = lambda *names: {n: {1: "tokens"} for n in names}  # noqa: E731
    with torch.no_grad():
        files["vision"] = export_graph(vision, (torch.zeros(1, 3, vision_size, vision_size),), os.path.join(out, "vision.onnx"),
                                       ["pixel_values"], ["image_features", "image_newline", "view_separator"],
                                       {"pixel_values": {0: "views", 2: "size", 3: "size"}, "image_features": {0: "views", 1: "rows", 2: "cols"}})
        files["embed"] = export_graph(embed, (torch.zeros(1, 4, dtype=torch.long),), os.path.join(out, "embed.onnx"),
                                      ["input_ids"], ["inputs_embeds"], rows("input_ids", "inputs_embeds"))
        length_names, lengths, past, axes = cache_trace_args(cache_form, L, nh, dh)
        past_names, written = cache_tensor_names(L, cache_form)
        outputs = ["candidate_logits", "candidate_ids", "last_hidden_state", *written]
        files["decoder"] = export_graph(decoder, (torch.zeros(1, TRACE_TOKENS, H), *lengths, *past), os.path.join(out, "decoder.onnx"),
                                        ["inputs_embeds", *length_names, *past_names], outputs,
                                        {**axes, **rows("inputs_embeds", *outputs[:3])}, inline, opsets)
        length_names, lengths, past, axes = cache_trace_args(cache_form, 1, nh, dh)
        past_names, written = cache_tensor_names(1, cache_form)
        outputs = ["candidate_logits", "candidate_ids", "hidden_states_out", *written]
        # Traced with more hidden rows than tokens (S ≠ T), so the two lengths stay separate dynamic axes.
        hidden_trace = (torch.zeros(1, TRACE_TOKENS + 1, H), torch.arange(1, TRACE_TOKENS + 1, dtype=torch.long))
        files["draft"] = export_graph(draft, (torch.zeros(1, TRACE_TOKENS, H), *hidden_trace, *lengths, *past),
                                      os.path.join(out, "draft.onnx"), ["inputs_embeds", "hidden_states", "hidden_rows", *length_names, *past_names],
                                      outputs, {**axes, **rows("inputs_embeds", *outputs[:3]), "hidden_states": {1: "source"},
                                                "hidden_rows": {0: "tokens"}}, draft_inline, opsets)
    write_tokenizer(os.path.join(out, "tokenizer.json"))
    files["tokenizer"] = ["tokenizer.json"]
    role_files = {role: [names[0]] for role, names in files.items()}
    data = [n for names in files.values() for n in names[1:]]
    if data:
        role_files["data"] = data
    description.files = role_files
    description.hidden, description.layers, description.heads = H, L, nh
    description.vocab = vocab
    description.draft_vocabulary = len(draft_vocabulary) if draft_vocabulary else 0
    description.cache_form = cache_form
    return write_manifest(out, description)
