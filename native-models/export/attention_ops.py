"""The attention core of the exported decoder and draft graphs, in the two cache forms of Recto's pack contract
(native-models/vlm/pack/packContract.ts, docs/decoding.md), written the way the reference generator writes them
(testing/referencePack/graphParts.ts `attention`, `sharedBufferAttention`).

torch 1.13's TorchScript exporter cannot trace onnxruntime's com.microsoft operators, nor an ONNX `If`, from plain
PyTorch code. So the cache-touching parts are `torch.autograd.Function`s: their `forward` computes the same numbers in
PyTorch (what tracing runs, and what gives the exporter its shapes) and their `symbolic` says what goes into the graph:
- 'shared-buffer': com.microsoft GroupQueryAttention, emitted directly.
- 'views': a placeholder node in the private domain `recto_export` for each read of the past (scores, then P·V);
  `inline_past_side` then replaces each with the real subgraph — an `If` on P = 0 around a com.microsoft FusedMatMul
  with transBatchB — because an `If` with subgraphs cannot be built from a TorchScript symbolic in 1.13.
"""
from __future__ import annotations

import warnings

import torch

PLACEHOLDER_DOMAIN = "recto_export"
MS_DOMAIN = "com.microsoft"


# ----------------------------------------------------------------------------------------------------------------------
# 'views': the past [1, P, nh, dh] (a view of the runtime's position-major buffer) is read in place.
# ----------------------------------------------------------------------------------------------------------------------
class PastScores(torch.autograd.Function):
    """q_heads [nh, T, dh] · past_key [1, P, nh, dh] → scores over the past [nh, T, P]."""

    @staticmethod
    def forward(ctx, q_heads, past_key):
        return torch.einsum("htd,phd->htp", q_heads, past_key[0])

    @staticmethod
    def symbolic(g, q_heads, past_key):
        out = g.op(f"{PLACEHOLDER_DOMAIN}::PastScores", q_heads, past_key)
        out.setType(q_heads.type().with_sizes([None, None, None]))
        return out


class PastMix(torch.autograd.Function):
    """probs over the past [nh, T, P] · past_value [1, P, nh, dh] → the past's share of the context [nh, T, dh]."""

    @staticmethod
    def forward(ctx, probs_past, past_value):
        return torch.einsum("htp,phd->htd", probs_past, past_value[0])

    @staticmethod
    def symbolic(g, probs_past, past_value):
        out = g.op(f"{PLACEHOLDER_DOMAIN}::PastMix", probs_past, past_value)
        out.setType(probs_past.type().with_sizes([None, None, None]))
        return out


def inline_past_side(model, heads: int, head_dim: int):
    """Replaces every PastScores / PastMix placeholder of an exported onnx.ModelProto with what graphParts.ts writes:
    a free Reshape of the past to [P, nh, dh] (allowzero: P may be 0), then an `If` on P = 0 whose else branch is
    FusedMatMul with transBatchB (B taken as nh matrices [P, dh] with leading dimension nh·dh: a strided GEMM per head,
    no copy) and whose then branch gives zeros of the output's shape. The If is needed because onnxruntime's CPU
    FusedMatMul divides by zero (SIGFPE, the process dies) on a zero-length P — the first run of every page."""
    from onnx import TensorProto, helper, numpy_helper
    import numpy as np

    graph = model.graph
    initializers = {}

    def const(name, values):
        if name not in initializers:
            initializers[name] = numpy_helper.from_array(np.array(values, dtype=np.int64), name)
        return name

    nodes = []
    for index, node in enumerate(graph.node):
        if node.domain != PLACEHOLDER_DOMAIN:
            nodes.append(node)
            continue
        left, past = node.input  # left operand [nh, T, ·]; past [1, P, nh, dh], a graph input
        out = node.output[0]
        p = f"recto_past_side_{index}"
        nodes += [
            helper.make_node("Shape", [past], [f"{p}.P"], start=1, end=2),  # [1]
            helper.make_node("Shape", [left], [f"{p}.T"], start=1, end=2),
            helper.make_node("Concat", [f"{p}.P", const("recto_const.heads_head_dim", [heads, head_dim])], [f"{p}.pnd"], axis=0),
            helper.make_node("Reshape", [past, f"{p}.pnd"], [f"{p}.view"], allowzero=1),  # [P, nh, dh]: no copy
            helper.make_node("Equal", [f"{p}.P", const("recto_const.zero", [0])], [f"{p}.is_empty"]),
            helper.make_node("Squeeze", [f"{p}.is_empty", const("recto_const.axis0", [0])], [f"{p}.no_past"]),
        ]
        if node.op_type == "PastScores":  # scores [nh, T, P]
            last, fused = f"{p}.P", helper.make_node("FusedMatMul", [left, f"{p}.view"], [f"{p}.fused"], domain=MS_DOMAIN, transB=1, transBatchB=1)
        elif node.op_type == "PastMix":  # context [nh, T, dh]
            last, fused = const("recto_const.head_dim", [head_dim]), helper.make_node("FusedMatMul", [left, f"{p}.view"], [f"{p}.fused"], domain=MS_DOMAIN, transBatchB=1)
        else:
            raise ValueError(f"unknown placeholder {node.op_type}")
        zeros = [
            helper.make_node("Concat", [const("recto_const.heads", [heads]), f"{p}.T", last], [f"{p}.shape"], axis=0),
            helper.make_node("ConstantOfShape", [const("recto_const.one", [1])], [f"{p}.zero"]),  # float 0, [1]
            helper.make_node("Expand", [f"{p}.zero", f"{p}.shape"], [f"{p}.zeros"]),
        ]
        branch = lambda body, name: helper.make_graph(body, name, [], [helper.make_tensor_value_info(body[-1].output[0], TensorProto.FLOAT, None)])  # noqa: E731
        nodes.append(helper.make_node("If", [f"{p}.no_past"], [out], then_branch=branch(zeros, f"{p}.empty"), else_branch=branch([fused], f"{p}.strided")))
    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.extend(initializers.values())
    imports = [o for o in model.opset_import if o.domain != PLACEHOLDER_DOMAIN]
    if not any(o.domain == MS_DOMAIN for o in imports):
        imports.append(helper.make_opsetid(MS_DOMAIN, 1))
    del model.opset_import[:]
    model.opset_import.extend(imports)
    return model


# ----------------------------------------------------------------------------------------------------------------------
# 'shared-buffer': one [1, nh, capacity, dh] buffer per cache, bound as both past and present by the runtime.
# ----------------------------------------------------------------------------------------------------------------------
class GroupQueryAttention(torch.autograd.Function):
    """onnxruntime's com.microsoft GroupQueryAttention (kv_num_heads = num_heads: plain multi-head attention) with its
    shared past/present buffer: q, k, v [1, T, H] (RoPE already applied, as graphParts.ts does it outside the kernel:
    do_rotary stays 0), past [1, nh, capacity, dh], seqlens_k [1] int32 = P + T − 1, total_sequence_length [] int32 =
    P + T → context [1, T, H], present [1, nh, capacity, dh] (the new rows written at P … P + T − 1). `scale` is the
    model's softmax scale (onnxruntime's default would be 1/√dh)."""

    @staticmethod
    def forward(ctx, q, k, v, past_key, past_value, seqlens_k, total_sequence_length, heads: int, scale: float):
        T, H = q.shape[1], q.shape[2]
        dh = H // heads
        # Only tracing runs this (the graph gets the symbolic below), so reading the length as a number is fine.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", torch.jit.TracerWarning)
            total = int(total_sequence_length)
        start = total - T
        split = lambda x: x.view(1, T, heads, dh).transpose(1, 2)  # noqa: E731  [1, nh, T, dh]
        present_key, present_value = past_key.clone(), past_value.clone()
        present_key[:, :, start:total] = split(k)
        present_value[:, :, start:total] = split(v)
        scores = (split(q) @ present_key[:, :, :total].transpose(2, 3)) * scale  # [1, nh, T, total]
        query_pos = torch.arange(T)[:, None] + start
        scores = scores.masked_fill(torch.arange(total)[None, :] > query_pos, float("-inf"))
        context = torch.softmax(scores, dim=-1) @ present_value[:, :, :total]
        return context.transpose(1, 2).reshape(1, T, H), present_key, present_value

    @staticmethod
    def symbolic(g, q, k, v, past_key, past_value, seqlens_k, total_sequence_length, heads, scale):
        context, present_key, present_value = g.op(
            f"{MS_DOMAIN}::GroupQueryAttention", q, k, v, past_key, past_value, seqlens_k, total_sequence_length,
            num_heads_i=heads, kv_num_heads_i=heads, scale_f=scale, outputs=3)
        context.setType(q.type())
        present_key.setType(past_key.type())
        present_value.setType(past_value.type())
        return context, present_key, present_value
