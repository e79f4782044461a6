"""The routed experts of the exported graphs (DeepseekV2MoE layers), in one of two forms, chosen per layer:

- 'fused' (default): one onnxruntime com.microsoft MoE node per layer — the form the reference generator writes
  (testing/referencePack/graphParts.ts `moe`). Inputs: the post-attention-norm hidden states [N, H], the router's
  logits [N, E] (the op takes the softmax over all E itself, then the top k, optionally renormalised), fc1 [E, 2F, H]
  with each expert's gate and up rows interleaved (row 2f = gate_proj row f, row 2f + 1 = up_proj row f: swiglu_fusion
  = 1), no fc1 bias, fc2 [E, H, F] (down_proj as is). Measured on onnxruntime-node 1.30 CPU at jina-ocr-v1's size, it
  is 1.8× (one token) to 6× (a 256-token prefill) faster than the gather form (native-models/export/README.md).
  What the op cannot express: a scoring function other than softmax, a top-k other than plain greedy (DeepSeek-V2's
  "group_limited_greedy", V3's "noaux_tc" with a score correction bias), separate up weights on CPU (fc3 is not
  implemented there).
- 'gather': Gather the weights of every expert some token picked (U of them) and run every token through all U,
  routed by the model's own gate module (so any gate variant exports faithfully). Kept for gates the fused op cannot
  express and selectable with `--moe-form gather`.

Before a layer is exported in either form, its patched forward is compared on random hidden states with the model's
own MoE forward; a mismatch stops the export rather than writing a wrong graph.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F

from attention_ops import MS_DOMAIN

MOE_FORMS = ("fused", "gather")
# Random hidden states the routing and the patched layer are checked on (rows; a fixed seed, so exports repeat).
PROBE_TOKENS, PROBE_SEED = 64, 20260
# How close the gate's top-k weights must be to the fused op's (softmax, top k, optional renormalisation) times one
# constant, and the patched layer's output to the original's (relative to the output's largest magnitude). Both are
# float32 rounding, far below any real mismatch (a wrong expert or a wrong scale moves them by orders of magnitude).
ROUTING_TOLERANCE, OUTPUT_TOLERANCE = 1e-4, 1e-4


def gate_routing(gate, x):
    """The model's own gate on x [N, H] → (expert ids [N, k] int64, weights [N, k]). DeepSeek-V2's MoEGate returns
    (topk_idx, topk_weight, aux_loss), other ports (weight, idx, …): the ids are its integer tensor, the weights the
    floating tensor of the same shape."""
    out = gate(x[None])
    out = out if isinstance(out, (tuple, list)) else (out,)
    ids = next(t for t in out if torch.is_tensor(t) and not t.is_floating_point())
    weights = next(t for t in out if torch.is_tensor(t) and t.is_floating_point() and t.shape == ids.shape)
    return ids.reshape(-1, ids.shape[-1]), weights.reshape(-1, ids.shape[-1])


def fused_routing(gate, hidden: int):
    """Whether the fused op expresses this gate: (normalize_routing_weights, scale) or the reason it does not.

    The attributes say which family the gate belongs to (DeepSeek-V2's MoEGate: scoring_func, topk_method, top_k,
    norm_topk_prob, routed_scaling_factor); the scale is then measured rather than read, because DeepSeek-V2 applies
    routed_scaling_factor only when it does not renormalise and DeepSeek-V3 applies it always: the gate is run on
    random hidden states and must pick the experts of a softmax top-k, with weights equal to the op's times one
    constant — which the export folds into fc2."""
    scoring = getattr(gate, "scoring_func", "softmax")
    method = getattr(gate, "topk_method", "greedy")
    if scoring != "softmax":
        return f"scoring_func {scoring!r} (the op scores with a softmax)"
    if method != "greedy":
        return f"topk_method {method!r} (the op picks a plain top-k)"
    if getattr(gate, "e_score_correction_bias", None) is not None:
        return "a score correction bias (the op picks by the softmax alone)"
    k = int(gate.top_k)
    normalize = bool(getattr(gate, "norm_topk_prob", False)) and k > 1
    x = torch.randn(PROBE_TOKENS, hidden, generator=torch.Generator().manual_seed(PROBE_SEED))
    with torch.no_grad():
        ids, weights = gate_routing(gate, x)
        expected, expected_ids = op_routing(F.linear(x, gate.weight), k, normalize)
    order, expected_order = ids.sort(dim=-1), expected_ids.sort(dim=-1)
    if ids.shape != expected_ids.shape or not torch.equal(order.values, expected_order.values):
        return "its picks differ from a softmax top-k of its logits"
    ratio = weights.gather(1, order.indices) / expected.gather(1, expected_order.indices)
    scale = float(ratio.mean())
    if float((ratio - scale).abs().max()) > ROUTING_TOLERANCE * abs(scale):
        return "its weights are not the softmax top-k's times one constant"
    return normalize, scale


def op_routing(logits, k: int, normalize: bool):
    """What the MoE op does with router_probs: softmax over all experts, top k, optionally renormalised."""
    weights, ids = torch.topk(F.softmax(logits, dim=-1), k, dim=-1)
    if normalize:
        weights = weights / weights.sum(dim=-1, keepdim=True)
    return weights, ids


class FusedMoE(torch.autograd.Function):
    """onnxruntime's com.microsoft MoE with SwiGLU experts: x [N, H], router logits [N, E], fc1 [E, 2F, H] (gate and
    up rows interleaved), fc2 [E, H, F] → [N, H], the sum over each token's top-k experts of weight × expert(x).
    `forward` computes the op's maths in PyTorch (what tracing runs, and what the export checks against the model's
    own layer); `symbolic` emits the op."""

    @staticmethod
    def forward(ctx, x, logits, fc1, fc2, k: int, normalize: bool):
        weights, ids = op_routing(logits, k, normalize)
        routing = torch.zeros_like(logits).scatter(1, ids, weights)  # [N, E]
        both = torch.einsum("nh,efh->nef", x, fc1)  # every expert on every token: only tracing and the check run it
        act = F.silu(both[..., 0::2]) * both[..., 1::2]  # ORT's swiglu g·σ(αg)·(u + β), α = 1, β = 0
        return torch.einsum("ne,nef,ehf->nh", routing, act, fc2)

    @staticmethod
    def symbolic(g, x, logits, fc1, fc2, k, normalize):
        # The absent fc1 bias: torch 1.13's optional-input placeholder (a None-typed prim::Constant), which the
        # exporter writes as an empty input name — what ONNX means by an omitted optional input.
        from torch.onnx.symbolic_helper import _optional_input_placeholder_tensor

        out = g.op(f"{MS_DOMAIN}::MoE", x, logits, fc1, _optional_input_placeholder_tensor(g), fc2,
                   k_i=k, activation_type_s="swiglu", swiglu_fusion_i=1, activation_alpha_f=1.0, activation_beta_f=0.0,
                   normalize_routing_weights_i=int(normalize))
        out.setType(x.type())
        return out


def fused_weights(moe, scale: float):
    """fc1 [E, 2F, H] (gate_proj and up_proj rows interleaved; nn.Linear weights are [F, H] already) and fc2 [E, H, F]
    (down_proj.weight × scale: the gate's constant factor — routed_scaling_factor where the gate applies it — folded
    into the down projection, which the op's weighted sum is linear in)."""
    fc1 = torch.stack([torch.stack([e.gate_proj.weight, e.up_proj.weight], dim=1).reshape(-1, e.gate_proj.weight.shape[1])
                       for e in moe.experts])
    fc2 = torch.stack([e.down_proj.weight for e in moe.experts]) * scale
    return fc1.contiguous(), fc2.contiguous()


def fused_forward(moe, normalize: bool, scale: float):
    fc1, fc2 = fused_weights(moe, scale)
    moe.register_buffer("moe_fc1", fc1, persistent=False)
    moe.register_buffer("moe_fc2", fc2, persistent=False)
    k = int(moe.gate.top_k)

    def forward(hidden_states):
        x = hidden_states.reshape(-1, hidden_states.shape[-1])  # [N, H]
        routed = FusedMoE.apply(x, F.linear(x, moe.gate.weight), moe.moe_fc1, moe.moe_fc2, k, normalize)
        return with_shared(moe, hidden_states, routed.reshape(hidden_states.shape))
    return forward


def gather_forward(moe):
    """Only the experts some token picked (U of them), each run on every token; the model's own gate routes."""
    moe.register_buffer("w_gate", torch.stack([e.gate_proj.weight.t() for e in moe.experts]), persistent=False)  # [E, H, F]
    moe.register_buffer("w_up", torch.stack([e.up_proj.weight.t() for e in moe.experts]), persistent=False)
    moe.register_buffer("w_down", torch.stack([e.down_proj.weight.t() for e in moe.experts]), persistent=False)  # [E, F, H]

    def forward(hidden_states):
        x = hidden_states.reshape(-1, hidden_states.shape[-1])  # [N, H]
        ids, weights = gate_routing(moe.gate, x)
        # Router weight per (token, expert), 0 where not picked; touch only experts some token picked.
        routing = torch.zeros(x.shape[0], len(moe.experts), dtype=x.dtype).scatter(1, ids, weights.to(x.dtype))  # [N, E]
        union = torch.nonzero(routing.sum(dim=0) > 0).reshape(-1)  # [U]
        gate = x[None] @ moe.w_gate[union]  # [U, N, F]
        up = x[None] @ moe.w_up[union]
        routed = (F.silu(gate) * up) @ moe.w_down[union]  # [U, N, H]
        routed = (routed * routing[:, union].t()[..., None]).sum(dim=0)  # [N, H]
        return with_shared(moe, hidden_states, routed.reshape(hidden_states.shape))
    return forward


def with_shared(moe, hidden_states, routed):
    shared = getattr(moe, "shared_experts", None)
    return routed if shared is None else routed + shared(hidden_states)


def patch_moe(moe, form: str, hidden: int) -> str:
    """Replaces a DeepseekV2MoE's forward with the export form `form` ('fused' falls back to 'gather' for a gate the
    op cannot express), after checking it against the original on random hidden states. Returns a line saying which
    form the layer got and why."""
    if form not in MOE_FORMS:
        raise ValueError(f"MoE form must be one of {', '.join(MOE_FORMS)}, got {form!r}")
    # The model's own forward, kept on the first patch: the same model object may be exported more than once.
    original = moe.__dict__.setdefault("original_forward", moe.forward)
    routing = fused_routing(moe.gate, hidden) if form == "fused" else "--moe-form gather"
    if isinstance(routing, tuple):
        normalize, scale = routing
        moe.forward = fused_forward(moe, normalize, scale)
        line = f"fused com.microsoft MoE (k = {moe.gate.top_k}, normalize_routing_weights = {int(normalize)}, fc2 × {scale:g})"
    else:
        moe.forward = gather_forward(moe)
        line = f"gather ({routing})"
    x = torch.randn(1, PROBE_TOKENS, hidden, generator=torch.Generator().manual_seed(PROBE_SEED + 1))
    with torch.no_grad():
        want, got = original(x), moe.forward(x)
    error = float((want - got).abs().max() / want.abs().max().clamp_min(1e-30))
    if not error <= OUTPUT_TOLERANCE:
        raise RuntimeError(f"the {line} form of this MoE layer differs from the model's own forward by {error:.2e} "
                           "(relative): are the experts SiLU-gated MLPs (gate_proj, up_proj, down_proj)?")
    return line
