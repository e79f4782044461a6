"""A tiny DeepSeek-OCR-shaped model with random weights (test fixture; not shipped, not jina-ocr-v1).

It has the module layout the export resolves on the real snapshot — `model.{sam_model, vision_model, projector,
image_newline, view_seperator, embed_tokens, layers, norm, mtp}` and `lm_head`; each layer `self_attn.{q_proj, k_proj,
v_proj, o_proj, rotary_emb, num_heads, softmax_scale}`, `input_layernorm`, `post_attention_layernorm`, `mlp` (a dense
first layer, then DeepseekV2MoE: `gate` — DeepSeek-V2's MoEGate with `weight`, `top_k`, `norm_topk_prob`,
`routed_scaling_factor`, `topk_method`, `scoring_func` at DeepSeek-OCR's values — `experts`, `shared_experts`); the
FastMTP head `enorm`, `hnorm`, `eh_proj`, `block` (a MoE layer whose gate renormalises), `norm` — and a module-level
`apply_rotary_pos_emb` as in DeepSeek-V2's modeling file (which interleaves the rotary half first). Its own forward is
the plain full-sequence computation (no cache, every expert on every token), written independently of the export's
graph code, so that greedy tokens from it are a reference for the exported graphs.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


@dataclass
class TinyConfig:
    vocab_size: int = 300
    hidden_size: int = 64
    num_attention_heads: int = 4  # head dim 16: GroupQueryAttention's CPU kernel needs a multiple of 8
    num_hidden_layers: int = 3
    first_k_dense_replace: int = 1
    intermediate_size: int = 128
    moe_intermediate_size: int = 32
    n_routed_experts: int = 8
    n_shared_experts: int = 2
    num_experts_per_tok: int = 2
    # DeepSeek-OCR's gate settings (its config.json; DeepSeek-V2's MoEGate reads them).
    topk_method: str = "greedy"
    scoring_func: str = "softmax"
    n_group: int = 1
    topk_group: int = 1
    norm_topk_prob: bool = False
    routed_scaling_factor: float = 1.0
    # The MTP block is a MoE layer too (as DeepSeek-V3's MTP module's block is), with renormalised top-k weights, so
    # that the export is tested on a renormalising gate as well.
    mtp_norm_topk_prob: bool = True
    max_position_embeddings: int = 256
    rope_theta: float = 10000.0
    rms_norm_eps: float = 1e-6
    vision_channels: int = 8
    patch: int = 64  # one image token per 64×64 pixels, as DeepSeek-OCR's 1024 → 16×16
    mtp_concat: str = "embedding-first"  # graph_export.MTP_CONCAT_ORDERS


class DeepseekV2RMSNorm(nn.Module):
    def __init__(self, hidden, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden))
        self.variance_epsilon = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.variance_epsilon) * self.weight


class DeepseekV2RotaryEmbedding(nn.Module):
    def __init__(self, dim, max_position_embeddings, base):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        t = torch.arange(max_position_embeddings).float()
        emb = torch.cat([torch.outer(t, inv_freq)] * 2, dim=-1)
        self.max_seq_len_cached = max_position_embeddings
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)

    def forward(self, x, seq_len=None):
        return self.cos_cached[:seq_len].to(x.dtype), self.sin_cached[:seq_len].to(x.dtype)


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin, position_ids, unsqueeze_dim=1):
    """DeepSeek-V2's: gathers the positions' rows and interleaves each head's halves before rotating."""
    cos = cos[position_ids].unsqueeze(unsqueeze_dim)
    sin = sin[position_ids].unsqueeze(unsqueeze_dim)
    b, h, s, d = q.shape
    q = q.view(b, h, s, d // 2, 2).transpose(4, 3).reshape(b, h, s, d)
    b, h, s, d = k.shape
    k = k.view(b, h, s, d // 2, 2).transpose(4, 3).reshape(b, h, s, d)
    return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)


class DeepseekV2Attention(nn.Module):
    """Multi-head attention (DeepSeek-OCR's decoder does not use MLA) with RoPE."""

    def __init__(self, config: TinyConfig):
        super().__init__()
        H = config.hidden_size
        self.num_heads = config.num_attention_heads
        self.head_dim = H // self.num_heads
        self.softmax_scale = self.head_dim ** -0.5
        self.q_proj, self.k_proj, self.v_proj, self.o_proj = (nn.Linear(H, H, bias=False) for _ in range(4))
        self.rotary_emb = DeepseekV2RotaryEmbedding(self.head_dim, config.max_position_embeddings, config.rope_theta)

    def forward(self, x, position_ids):
        B, T, H = x.shape
        split = lambda t: t.view(B, T, self.num_heads, self.head_dim).transpose(1, 2)  # noqa: E731
        q, k, v = split(self.q_proj(x)), split(self.k_proj(x)), split(self.v_proj(x))
        cos, sin = self.rotary_emb(v, seq_len=T)
        q, k = apply_rotary_pos_emb(q, k, cos, sin, position_ids)
        scores = (q @ k.transpose(2, 3)) * self.softmax_scale
        scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        return self.o_proj((torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, H))


class DeepseekV2MLP(nn.Module):
    def __init__(self, hidden, intermediate):
        super().__init__()
        self.gate_proj = nn.Linear(hidden, intermediate, bias=False)
        self.up_proj = nn.Linear(hidden, intermediate, bias=False)
        self.down_proj = nn.Linear(intermediate, hidden, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class MoEGate(nn.Module):
    """DeepSeek-V2's MoEGate (eval path) with DeepSeek-OCR's settings: a softmax over the experts' logits, plain greedy
    top-k, no renormalisation, routed_scaling_factor 1 — and, as in DeepSeek-V2 (not V3), the scaling factor applied
    only when the weights are not renormalised. Returns (topk_idx, topk_weight, aux_loss) as DeepSeek-V2's does."""

    def __init__(self, config: TinyConfig, norm_topk_prob: bool):
        super().__init__()
        self.top_k = config.num_experts_per_tok
        self.n_routed_experts = config.n_routed_experts
        self.routed_scaling_factor = config.routed_scaling_factor
        self.scoring_func = config.scoring_func
        self.topk_method = config.topk_method
        self.n_group, self.topk_group = config.n_group, config.topk_group
        self.norm_topk_prob = norm_topk_prob
        self.weight = nn.Parameter(torch.randn(config.n_routed_experts, config.hidden_size) / math.sqrt(config.hidden_size))

    def forward(self, x):
        logits = F.linear(x.reshape(-1, x.shape[-1]).float(), self.weight.float())
        if self.scoring_func != "softmax" or self.topk_method != "greedy":
            raise NotImplementedError(f"tiny MoEGate: {self.scoring_func} / {self.topk_method}")
        weights, index = torch.topk(logits.softmax(dim=-1), self.top_k, dim=-1, sorted=False)
        if self.top_k > 1 and self.norm_topk_prob:
            weights = weights / (weights.sum(dim=-1, keepdim=True) + 1e-20)
        else:
            weights = weights * self.routed_scaling_factor
        return index, weights, None


class DeepseekV2MoE(nn.Module):
    def __init__(self, config: TinyConfig, norm_topk_prob: bool):
        super().__init__()
        H, F_ = config.hidden_size, config.moe_intermediate_size
        self.experts = nn.ModuleList(DeepseekV2MLP(H, F_) for _ in range(config.n_routed_experts))
        self.gate = MoEGate(config, norm_topk_prob)
        self.shared_experts = DeepseekV2MLP(H, F_ * config.n_shared_experts)

    def forward(self, x):
        """Dense reference: every expert on every token, weighted by the router (0 for experts not picked)."""
        flat = x.reshape(-1, x.shape[-1])
        index, weights, _ = self.gate(x)
        routing = torch.zeros(flat.shape[0], len(self.experts)).scatter(1, index, weights)  # [N, E]
        every = torch.stack([expert(flat) for expert in self.experts], dim=1)  # [N, E, H]
        return (routing[..., None] * every).sum(dim=1).reshape(x.shape) + self.shared_experts(x)


class DeepseekV2DecoderLayer(nn.Module):
    def __init__(self, config: TinyConfig, dense: bool, norm_topk_prob: bool = False):
        super().__init__()
        self.self_attn = DeepseekV2Attention(config)
        self.mlp = DeepseekV2MLP(config.hidden_size, config.intermediate_size) if dense else DeepseekV2MoE(config, norm_topk_prob)
        self.input_layernorm = DeepseekV2RMSNorm(config.hidden_size, config.rms_norm_eps)
        self.post_attention_layernorm = DeepseekV2RMSNorm(config.hidden_size, config.rms_norm_eps)

    def forward(self, x, position_ids):
        x = x + self.self_attn(self.input_layernorm(x), position_ids)
        return x + self.mlp(self.post_attention_layernorm(x))


class MultiTokenPredictor(nn.Module):
    """DeepSeek-V3's MTP module shape: norms of the hidden state and of the next token's embedding, a projection of
    the two, one decoder layer (a MoE one), a norm before the shared lm_head."""

    def __init__(self, config: TinyConfig):
        super().__init__()
        H = config.hidden_size
        self.enorm = DeepseekV2RMSNorm(H, config.rms_norm_eps)
        self.hnorm = DeepseekV2RMSNorm(H, config.rms_norm_eps)
        self.eh_proj = nn.Linear(2 * H, H, bias=False)
        self.block = DeepseekV2DecoderLayer(config, dense=False, norm_topk_prob=config.mtp_norm_topk_prob)
        self.norm = DeepseekV2RMSNorm(H, config.rms_norm_eps)
        self.concat = config.mtp_concat

    def forward(self, hidden_states, inputs_embeds, position_ids):
        """Pairs (decoder hidden state at position i − 1, embedding of token i) → the block's hidden states."""
        joined = [self.enorm(inputs_embeds), self.hnorm(hidden_states)]
        x = self.eh_proj(torch.cat(joined if self.concat == "embedding-first" else joined[::-1], dim=-1))
        return self.block(x, position_ids)


class SamStandIn(nn.Module):
    """[N, 3, S, S] → [N, C, S/64, S/64], the shape of DeepSeek-OCR's SAM encoder output."""

    def __init__(self, config: TinyConfig):
        super().__init__()
        self.conv = nn.Conv2d(3, config.vision_channels, config.patch, stride=config.patch)

    def forward(self, pixels):
        return self.conv(pixels)


class ClipStandIn(nn.Module):
    """(pixels, sam features) → [N, 1 + q·q, C] with a class token first, the shape of DeepSeek-OCR's CLIP output."""

    def __init__(self, config: TinyConfig):
        super().__init__()
        self.proj = nn.Linear(config.vision_channels, config.vision_channels)
        self.cls = nn.Parameter(torch.randn(config.vision_channels))

    def forward(self, pixels, sam):
        patches = self.proj(sam.flatten(2).transpose(1, 2))
        return torch.cat([self.cls.expand(patches.shape[0], 1, -1), patches], dim=1)


class TinyDeepseekOCRModel(nn.Module):
    def __init__(self, config: TinyConfig):
        super().__init__()
        H = config.hidden_size
        self.embed_tokens = nn.Embedding(config.vocab_size, H)
        self.layers = nn.ModuleList(DeepseekV2DecoderLayer(config, i < config.first_k_dense_replace, config.norm_topk_prob)
                                    for i in range(config.num_hidden_layers))
        self.norm = DeepseekV2RMSNorm(H, config.rms_norm_eps)
        self.sam_model = SamStandIn(config)
        self.vision_model = ClipStandIn(config)
        self.projector = nn.Linear(2 * config.vision_channels, H)
        self.image_newline = nn.Parameter(torch.randn(H))
        self.view_seperator = nn.Parameter(torch.randn(H))  # sic, DeepSeek-OCR's spelling
        self.mtp = MultiTokenPredictor(config)


class TinyDeepseekOCRForCausalLM(nn.Module):
    def __init__(self, config: TinyConfig):
        super().__init__()
        self.config = config
        self.model = TinyDeepseekOCRModel(config)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)

    def hidden_states(self, input_ids):
        """Last hidden states after the final norm, [1, T, H], for the whole sequence (no cache)."""
        x = self.model.embed_tokens(input_ids)
        positions = torch.arange(input_ids.shape[1])[None, :]
        for layer in self.model.layers:
            x = layer(x, positions)
        return self.model.norm(x)


@torch.no_grad()
def torch_draft_logits(model: TinyDeepseekOCRForCausalLM, ids):
    """The FastMTP head over a whole sequence: row i − 1 predicts token i + 1 from the decoder's hidden state at
    i − 1 and the embedding of token i. [n − 1, vocab]"""
    ids = torch.tensor([ids])
    hidden = model.hidden_states(ids)
    mtp = model.model.mtp
    x = mtp(hidden[:, :-1], model.model.embed_tokens(ids[:, 1:]), torch.arange(ids.shape[1] - 1)[None, :])
    return model.lm_head(mtp.norm(x))[0]


def build_tiny_model(seed: int, config: TinyConfig | None = None) -> TinyDeepseekOCRForCausalLM:
    """Random weights from `seed`. Linear layers keep PyTorch's default init; embeddings and the head are scaled so
    that logits are spread (distinct argmaxes, far from ties between onnxruntime's and PyTorch's float sums)."""
    torch.manual_seed(seed)
    model = TinyDeepseekOCRForCausalLM(config or TinyConfig())
    with torch.no_grad():
        model.lm_head.weight.mul_(4.0)
    return model.eval()


def fit_draft_head(model: TinyDeepseekOCRForCausalLM, seed: int, steps: int = 30, sequences: int = 24, length: int = 32):
    """Trains the MTP head (a few Adam steps, ~3 s) to predict what the decoder predicts one position later, as
    FastMTP's head is trained: with random weights it would never agree with the decoder, and FastMTP on the exported
    pack would only ever reject drafts. Targets: the decoder's own argmax at position i, from the pair (hidden state
    at i − 1, embedding of token i), on random token sequences (teacher-forced, one decoder pass per sequence)."""
    generator = torch.Generator().manual_seed(seed)
    ids = torch.randint(10, model.config.vocab_size, (sequences, length), generator=generator)
    with torch.no_grad():
        hidden = torch.cat([model.hidden_states(ids[i:i + 1]) for i in range(sequences)])  # [B, L, H]
        target = model.lm_head(hidden).argmax(-1)[:, 1:]
        embeds = model.model.embed_tokens(ids)[:, 1:]
    mtp = model.model.mtp
    mtp.requires_grad_(True)
    optimizer = torch.optim.Adam(mtp.parameters(), lr=3e-3)
    positions = torch.arange(length - 1)[None, :]
    for _ in range(steps):
        logits = model.lm_head(mtp.norm(mtp(hidden[:, :-1], embeds, positions)))
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    mtp.requires_grad_(False)
    return float(loss)


@torch.no_grad()
def torch_greedy(model: TinyDeepseekOCRForCausalLM, prompt, max_new_tokens: int, eos: int):
    """Plain greedy (no no-repeat rule), recomputing the whole sequence each step: tokens after the prompt, EOS not
    included, and the margin of each pick (largest minus second-largest logit)."""
    ids, tokens, margins = list(prompt), [], []
    for _ in range(max_new_tokens):
        logits = model.lm_head(model.hidden_states(torch.tensor([ids]))[0, -1])
        top = torch.topk(logits, 2)
        token = int(top.indices[0])
        margins.append(float(top.values[0] - top.values[1]))
        if token == eos:
            break
        tokens.append(token)
        ids.append(token)
    return tokens, margins
