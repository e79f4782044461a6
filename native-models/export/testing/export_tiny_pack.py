#!/usr/bin/env python3
"""Exports the tiny DeepSeek-OCR-shaped model (tiny_deepseek_ocr.py) with the real export code, in both cache forms,
and writes PyTorch's own greedy tokens for a few prompts beside the packs (test fixture for exportRoundTrip.test.ts).

    /usr/bin/python3 native-models/export/testing/export_tiny_pack.py OUT [--seed 7] [--prompts 6] [--tokens 24]

Writes OUT/views/ and OUT/shared-buffer/ (model packs, routed experts as fused com.microsoft MoE nodes),
OUT/views-gather/ (cache form views, experts in the gather form: `--moe-form gather`), OUT/views-draft-vocabulary/
(the draft head over a compressed vocabulary: ids < 150, the added tokens and EOS; `--draft-vocab 150`) and
OUT/reference.json:
{"eos", "prompts": [[ids]], "greedy": [[tokens]], "margins": [[largest − second logit per pick]],
 "draft": {"ids": the first prompt and its greedy tokens, "top" / "topLogit" / "margins": the FastMTP head's top-1
 per row over that sequence, "subset": the sorted ids of the compressed draft vocabulary, "subsetTop" /
 "subsetTopLogit" / "subsetMargins": the same head's top-1 among those ids}, "vision": {"size", "features" (flattened), "newline", "separator"} for a page of
 0.5·sin(i) pixels}.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from graph_export import export_pack  # noqa: E402
from pack_manifest import CACHE_FORMS, PackDescription, draft_vocabulary_ids  # noqa: E402
from tiny_deepseek_ocr import build_tiny_model, fit_draft_head, torch_draft_logits, torch_greedy  # noqa: E402

BOS, EOS, IMAGE = 0, 1, 2
FIRST_TEXT_TOKEN = 10
# Added tokens numbered after the merges, as DeepSeek's tokenizer numbers `<td>`, `</td>` and its grounding tokens: the
# compressed draft vocabulary keeps them although they lie above the cut (so its id list is not a prefix).
ADDED = {"<td>": 297, "</td>": 298, "<|grounding|>": 299}
DRAFT_VOCAB_CUT = 150


def write_tokenizer(vocab_size):
    """A word-level tokenizer.json naming every id (the runtime only parses the file; nothing here decodes text)."""
    def write(path):
        named = {"<s>": BOS, "</s>": EOS, "<image>": IMAGE, **ADDED}
        vocab = {**named, **{f"t{i}": i for i in range(vocab_size) if i not in named.values()}}
        added = [{"id": i, "content": content, "special": True} for content, i in named.items()]
        with open(path, "w", encoding="utf-8") as handle:
            json.dump({"version": "1.0", "added_tokens": added, "model": {"type": "WordLevel", "vocab": vocab, "unk_token": "</s>"}}, handle)
    return write


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--prompts", type=int, default=6)
    parser.add_argument("--tokens", type=int, default=24)
    opts = parser.parse_args()

    model = build_tiny_model(opts.seed)
    config = model.config
    fit_draft_head(model, opts.seed)
    # Reference first, from the model's own forward (the export patches the MoE for tracing; numerics are the same).
    rng = random.Random(opts.seed)
    prompts = [[BOS, *(rng.randrange(FIRST_TEXT_TOKEN, config.vocab_size) for _ in range(rng.randint(2, 10)))] for _ in range(opts.prompts)]
    greedy, margins = zip(*(torch_greedy(model, p, opts.tokens, EOS) for p in prompts))
    # The draft head on the first prompt and its greedy continuation: top-1 id and logit per row.
    draft_ids = prompts[0] + list(greedy[0])
    draft_logits = torch_draft_logits(model, draft_ids)
    draft_top = torch.topk(draft_logits, 2, dim=-1)
    subset = draft_vocabulary_ids(config.vocab_size, DRAFT_VOCAB_CUT, [BOS, EOS, IMAGE, *ADDED.values()], EOS)
    subset_top = torch.topk(draft_logits[:, subset], 2, dim=-1)

    # The vision path on a deterministic page (pixel i of the flattened [1, 3, S, S] input = 0.5·sin(i)).
    size = 128
    pixels = (0.5 * torch.sin(torch.arange(3 * size * size, dtype=torch.float64))).float().reshape(1, 3, size, size)
    with torch.no_grad():
        core = model.model
        sam = core.sam_model(pixels)
        features = core.projector(torch.cat((core.vision_model(pixels, sam)[:, 1:], sam.flatten(2).permute(0, 2, 1)), dim=-1))
    vision = {"size": size, "features": features.flatten().tolist(), "newline": core.image_newline.tolist(),
              "separator": core.view_seperator.tolist()}

    os.makedirs(opts.out, exist_ok=True)
    packs = [*((form, form, "fused", None) for form in CACHE_FORMS), ("views-gather", "views", "gather", None),
             ("views-draft-vocabulary", "views", "fused", subset)]
    for folder, form, moe_form, draft_vocabulary in packs:
        export_pack(model, os.path.join(opts.out, folder), PackDescription(
            name="tiny-deepseek-ocr", version=f"seed-{opts.seed}", licence="test fixture: random weights", vocab=0,
            hidden=0, layers=0, heads=0, bos=BOS, eos=EOS, image=IMAGE, exempt_token_ids=[],
            max_positions=config.max_position_embeddings, max_new_tokens=opts.tokens,
            description="native-models/export/testing/export_tiny_pack.py"),
            write_tokenizer(config.vocab_size), cache_form=form, mtp_concat=config.mtp_concat, vision_size=128,
            moe_form=moe_form, draft_vocabulary=draft_vocabulary)
    with open(os.path.join(opts.out, "reference.json"), "w", encoding="utf-8") as handle:
        json.dump({"eos": EOS, "prompts": prompts, "greedy": [list(g) for g in greedy], "margins": [list(m) for m in margins],
                   "vision": vision,
                   "draft": {"ids": draft_ids, "top": draft_top.indices[:, 0].tolist(), "topLogit": draft_top.values[:, 0].tolist(),
                             "margins": (draft_top.values[:, 0] - draft_top.values[:, 1]).tolist(),
                             "subset": subset, "subsetTop": [subset[i] for i in subset_top.indices[:, 0].tolist()],
                             "subsetTopLogit": subset_top.values[:, 0].tolist(),
                             "subsetMargins": (subset_top.values[:, 0] - subset_top.values[:, 1]).tolist()}}, handle)
    print(os.path.join(opts.out, "reference.json"))


if __name__ == "__main__":
    main()
