"""Which export form each DeepSeek MoE gate variant gets, and that the patched layer computes what the model's own does
(moe_ops.py). Run by exportRoundTrip.test.ts (and `/usr/bin/python3 -m unittest native-models/export/test_moe_ops.py`).

The round trip decodes graphs with DeepSeek-OCR's gate (softmax, greedy, no renormalisation) and a renormalising one;
here the variants it does not export: routed_scaling_factor folded into fc2 (applied by DeepSeek-V2 only without
renormalisation, by DeepSeek-V3 always), and the gates the fused op cannot express, which must fall back to gather.
"""
from __future__ import annotations

import os
import sys
import unittest

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "testing"))
from moe_ops import patch_moe  # noqa: E402
from tiny_deepseek_ocr import DeepseekV2MoE, TinyConfig  # noqa: E402


class V3StyleGate(torch.nn.Module):
    """DeepSeek-V3's order of operations on softmax scores: renormalise, then scale always."""

    def __init__(self, gate):
        super().__init__()
        self.weight, self.top_k, self.norm_topk_prob, self.routed_scaling_factor = gate.weight, gate.top_k, True, 2.5

    def forward(self, x):
        scores = F.linear(x.reshape(-1, x.shape[-1]), self.weight).softmax(dim=-1)
        weights, ids = torch.topk(scores, self.top_k, dim=-1, sorted=False)
        return ids, weights / weights.sum(dim=-1, keepdim=True) * self.routed_scaling_factor, None


class GroupLimitedGate(torch.nn.Module):
    """DeepSeek-V2's group_limited_greedy: experts in n_group groups, the top-k taken within the best topk_group."""

    def __init__(self, gate, n_group=4, topk_group=2):
        super().__init__()
        self.weight, self.top_k, self.topk_method = gate.weight, gate.top_k, "group_limited_greedy"
        self.n_group, self.topk_group = n_group, topk_group

    def forward(self, x):
        scores = F.linear(x.reshape(-1, x.shape[-1]), self.weight).softmax(dim=-1)
        N, E = scores.shape
        groups = scores.view(N, self.n_group, -1).max(dim=-1).values
        chosen = torch.zeros_like(groups).scatter(1, torch.topk(groups, self.topk_group, dim=-1).indices, 1)
        mask = chosen[..., None].expand(N, self.n_group, E // self.n_group).reshape(N, E)
        weights, ids = torch.topk(scores.masked_fill(mask == 0, 0.0), self.top_k, dim=-1, sorted=False)
        return ids, weights, None


class SigmoidGate(torch.nn.Module):
    def __init__(self, gate):
        super().__init__()
        self.weight, self.top_k, self.scoring_func = gate.weight, gate.top_k, "sigmoid"

    def forward(self, x):
        scores = F.linear(x.reshape(-1, x.shape[-1]), self.weight).sigmoid()
        weights, ids = torch.topk(scores, self.top_k, dim=-1)
        return ids, weights, None


def moe(norm_topk_prob=False, routed_scaling_factor=1.0, top_k=2, seed=3):
    torch.manual_seed(seed)
    layer = DeepseekV2MoE(TinyConfig(routed_scaling_factor=routed_scaling_factor, num_experts_per_tok=top_k), norm_topk_prob)
    return layer.eval().requires_grad_(False)


class MoeFormTest(unittest.TestCase):
    def patched(self, layer, form="fused"):
        """patch_moe raises if the patched forward differs from the original on its probe; check again on other input."""
        original = layer.forward
        line = patch_moe(layer, form, TinyConfig.hidden_size)
        x = torch.randn(1, 9, TinyConfig.hidden_size, generator=torch.Generator().manual_seed(11))
        torch.testing.assert_close(layer(x), original(x), rtol=1e-4, atol=1e-5)
        return line

    def test_deepseek_ocr_gate_is_fused_unscaled(self):
        self.assertEqual(self.patched(moe()), "fused com.microsoft MoE (k = 2, normalize_routing_weights = 0, fc2 × 1)")

    def test_scaling_factor_is_folded_into_fc2_where_the_gate_applies_it(self):
        # DeepSeek-V2: scaled without renormalisation, not scaled with it.
        self.assertIn("normalize_routing_weights = 0, fc2 × 2.5", self.patched(moe(routed_scaling_factor=2.5)))
        self.assertIn("normalize_routing_weights = 1, fc2 × 1)", self.patched(moe(True, routed_scaling_factor=2.5)))
        # DeepSeek-V3's order: renormalised and scaled.
        layer = moe()
        layer.gate = V3StyleGate(layer.gate)
        self.assertIn("normalize_routing_weights = 1, fc2 × 2.5", self.patched(layer))

    def test_top_1_is_never_renormalised(self):
        self.assertIn("k = 1, normalize_routing_weights = 0", self.patched(moe(True, top_k=1)))

    def test_gates_the_op_cannot_express_fall_back_to_gather(self):
        for make, reason in [(GroupLimitedGate, "topk_method 'group_limited_greedy'"), (SigmoidGate, "scoring_func 'sigmoid'")]:
            layer = moe()
            layer.gate = make(layer.gate)
            self.assertEqual(self.patched(layer), f"gather ({reason} (the op {'picks a plain top-k' if make is GroupLimitedGate else 'scores with a softmax'}))")

    def test_gather_when_asked(self):
        self.assertEqual(self.patched(moe(True, routed_scaling_factor=2.5), "gather"), "gather (--moe-form gather)")

    def test_experts_other_than_silu_gated_stop_the_export(self):
        layer = moe()
        for expert in layer.experts:
            expert.forward = lambda x, e=expert: e.down_proj(F.gelu(e.gate_proj(x)) * e.up_proj(x))
        with self.assertRaisesRegex(RuntimeError, "differs from the model's own forward"):
            patch_moe(layer, "fused", TinyConfig.hidden_size)


if __name__ == "__main__":
    unittest.main()
