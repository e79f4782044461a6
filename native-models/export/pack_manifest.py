"""Model-pack manifest writing, shared by export_jina_ocr.py and its tests. Standard library only.

Mirrors native-models/vlm/pack/packContract.ts and manifest.ts: the runtime refuses a pack whose manifest, hashes or
tensor names differ from this layout. Format 3: KV caches stay where the runtime keeps them, in one of two cache forms
(`cacheForm`): 'views' — past.{i}.* [1, P, nh, dh] read in place, only the new positions written (new.{i}.*
[1, T, nh, dh]); 'shared-buffer' — GroupQueryAttention over [1, nh, capacity, dh] buffers bound as both past.{i}.* and
present.{i}.*, with the valid length in seqlens_k / total_sequence_length. Graphs return candidate_logits /
candidate_ids (TopK); the draft graph picks its hidden-state rows itself (hidden_rows).
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import Dict, Iterable, List

MANIFEST_FILE = "manifest.json"
FORMAT_VERSION = 3
ROLES = ("vision", "embed", "decoder", "draft")
CACHE_FORMS = ("views", "shared-buffer")
SHARED_BUFFER_LENGTHS = ["seqlens_k", "total_sequence_length"]
PROMPT = "<image>\n<|grounding|>Convert the document to markdown."
JINA_OCR_LICENCE = "CC BY-NC 4.0 (jinaai/jina-ocr-v1 weights; non-commercial use only)"


def decoder_cache_names(layers: int) -> List[Dict[str, str]]:
    return [
        {
            "past_key": f"past.{i}.key",
            "past_value": f"past.{i}.value",
            "new_key": f"new.{i}.key",
            "new_value": f"new.{i}.value",
            "present_key": f"present.{i}.key",
            "present_value": f"present.{i}.value",
        }
        for i in range(layers)
    ]


def expected_tensor_names(role: str, layers: int, cache_form: str = "views") -> Dict[str, List[str]]:
    """Input and output names each graph must declare (same as expectedTensorNames in packContract.ts)."""
    if cache_form not in CACHE_FORMS:
        raise ValueError(f"unknown cache form {cache_form!r}")
    written = ("new_key", "new_value") if cache_form == "views" else ("present_key", "present_value")
    lengths = [] if cache_form == "views" else SHARED_BUFFER_LENGTHS

    def cache(names):
        return (
            [*lengths, *(n for c in names for n in (c["past_key"], c["past_value"]))],
            [n for c in names for n in (c[written[0]], c[written[1]])],
        )

    if role == "vision":
        return {"inputs": ["pixel_values"], "outputs": ["image_features", "image_newline", "view_separator"]}
    if role == "embed":
        return {"inputs": ["input_ids"], "outputs": ["inputs_embeds"]}
    if role == "decoder":
        past, new = cache(decoder_cache_names(layers))
        return {"inputs": ["inputs_embeds", *past], "outputs": ["candidate_logits", "candidate_ids", "last_hidden_state", *new]}
    if role == "draft":
        past, new = cache(decoder_cache_names(1))
        return {"inputs": ["inputs_embeds", "hidden_states", "hidden_rows", *past], "outputs": ["candidate_logits", "candidate_ids", "hidden_states_out", *new]}
    raise ValueError(f"unknown graph role {role!r}")


def minimum_candidates(ngram_size: int, window_size: int) -> int:
    """Candidates per row so that argmax under the no-repeat rule is exact (minimumCandidates in packContract.ts)."""
    return window_size - ngram_size + 2


def draft_vocabulary_ids(vocab: int, cut: int, added_ids: Iterable[int], eos: int) -> List[int]:
    """FastMTP's compressed draft vocabulary: the token ids the draft head scores, sorted ascending (draftVocabularyIds
    in testing/referencePack/draftVocabulary.ts). BPE tokenizers (DeepSeek's included) number merged tokens in merge
    order, most frequent pair first, so the first `cut` ids approximate the most common pieces; every added token
    (specials, `<td>`, grounding tokens: numbered after the merges, yet emitted on every page) and EOS are kept too.
    A draft outside the list is never proposed; verification keeps the committed text greedy's either way."""
    if not isinstance(cut, int) or cut < 1:
        raise ValueError(f"draft vocabulary cut must be a positive integer, got {cut!r}")
    ids = set(range(min(cut, vocab)))
    ids.update(i for i in (*added_ids, eos) if 0 <= i < vocab)
    return sorted(ids)


def sha256_file(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


@dataclass
class PackDescription:
    name: str
    version: str
    licence: str
    vocab: int
    hidden: int
    layers: int
    heads: int
    bos: int
    eos: int
    image: int
    exempt_token_ids: List[int]
    max_positions: int
    draft_depth: int = 3
    ngram_size: int = 30
    window_size: int = 90
    max_new_tokens: int = 8192
    default_image_mode: str = "gundam"
    description: str = ""
    prompt: str = PROMPT
    cache_form: str = "views"
    # ids the draft head scores (FastMTP's compressed draft vocabulary); 0: the full vocabulary (not written)
    draft_vocabulary: int = 0
    # role -> file names in the pack folder; "data" files are external weights of a graph
    files: Dict[str, List[str]] = field(default_factory=dict)


def write_manifest(pack_dir: str, pack: PackDescription) -> dict:
    """Hashes every file and writes manifest.json; returns the manifest."""
    entries = []
    for role, names in pack.files.items():
        for name in names:
            if os.sep in name or name.startswith("."):
                raise ValueError(f"{name}: pack files must be plain names inside the pack folder")
            path = os.path.join(pack_dir, name)
            entries.append({"role": role, "path": name, "sha256": sha256_file(path), "bytes": os.path.getsize(path)})
    if pack.cache_form not in CACHE_FORMS:
        raise ValueError(f"cache form must be one of {', '.join(CACHE_FORMS)}, got {pack.cache_form!r}")
    for role in (*ROLES, "tokenizer"):
        if not any(e["role"] == role for e in entries):
            raise ValueError(f"{pack_dir}: no {role} file given")
    candidates = minimum_candidates(pack.ngram_size, pack.window_size)
    if pack.draft_vocabulary and not candidates <= pack.draft_vocabulary <= pack.vocab:
        raise ValueError(f"draft vocabulary of {pack.draft_vocabulary} ids: the draft head must score at least the "
                         f"{candidates} candidates it returns per row and at most the vocabulary ({pack.vocab})")
    manifest = {
        "format": "recto-vlm-pack",
        "formatVersion": FORMAT_VERSION,
        "name": pack.name,
        "version": pack.version,
        "licence": pack.licence,
        "description": pack.description,
        "files": entries,
        "tensors": {role: expected_tensor_names(role, pack.layers, pack.cache_form) for role in ROLES},
        "dims": {
            "vocab": pack.vocab,
            "hidden": pack.hidden,
            "layers": pack.layers,
            "heads": pack.heads,
            "headDim": pack.hidden // pack.heads,
        },
        "specialTokens": {"bos": pack.bos, "eos": pack.eos, "image": pack.image},
        "prompt": pack.prompt,
        "defaultImageMode": pack.default_image_mode,
        "draftDepth": pack.draft_depth,
        "noRepeatNgram": {
            "ngramSize": pack.ngram_size,
            "windowSize": pack.window_size,
            "exemptTokenIds": list(pack.exempt_token_ids),
        },
        "cacheForm": pack.cache_form,
        "candidates": candidates,
        **({"draftVocabulary": pack.draft_vocabulary} if pack.draft_vocabulary else {}),
        "maxNewTokens": pack.max_new_tokens,
        "maxPositions": pack.max_positions,
    }
    with open(os.path.join(pack_dir, MANIFEST_FILE), "w", encoding="utf-8") as handle:
        json.dump(manifest, handle, indent=2, ensure_ascii=False)
    return manifest


if __name__ == "__main__":
    # Contract self-test used by native-models/vlm/pack/pythonManifest.test.ts: writes a pack of dummy files.
    import sys

    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    files = {"vision": ["vision.onnx"], "embed": ["embed.onnx"], "decoder": ["decoder.onnx", "decoder.onnx.data"],
             "draft": ["draft.onnx"], "tokenizer": ["tokenizer.json"]}
    for names in files.values():
        for name in names:
            with open(os.path.join(out, name), "wb") as handle:
                # Graphs: a minimal ModelProto (ir_version 8), which the loader's reference check can parse.
                handle.write(b"\x08\x08" if name.endswith(".onnx") else name.encode() * 3)
    write_manifest(out, PackDescription(
        name="jina-ocr-v1", version="contract-test", licence=JINA_OCR_LICENCE, vocab=129280, hidden=1280, layers=12,
        heads=10, bos=0, eos=1, image=128815, exempt_token_ids=[128821, 128822], max_positions=8192, files=files,
        draft_vocabulary=len(draft_vocabulary_ids(129280, 32768, [128815, 128821, 128822], 1))))
    print(os.path.join(out, MANIFEST_FILE))
