"""python3 -m unittest native-models/export/test_pack_manifest.py  (standard library only)"""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from pack_manifest import (FORMAT_VERSION, JINA_OCR_LICENCE, PackDescription, draft_vocabulary_ids, expected_tensor_names,  # noqa: E402
                           sha256_file, write_manifest)


class ManifestLayout(unittest.TestCase):
    def make_pack(self, directory):
        files = {"vision": ["vision.onnx"], "embed": ["embed.onnx"], "decoder": ["decoder.onnx", "decoder.onnx.data"],
                 "draft": ["draft.onnx"], "tokenizer": ["tokenizer.json"]}
        for names in files.values():
            for name in names:
                with open(os.path.join(directory, name), "wb") as handle:
                    handle.write(name.encode())
        return PackDescription(name="jina-ocr-v1", version="t", licence=JINA_OCR_LICENCE, vocab=129280, hidden=1280,
                               layers=12, heads=10, bos=0, eos=1, image=128815, exempt_token_ids=[128821, 128822],
                               max_positions=8192, files=files)

    def test_writes_hashes_names_and_licence(self):
        with tempfile.TemporaryDirectory() as directory:
            manifest = write_manifest(directory, self.make_pack(directory))
            with open(os.path.join(directory, "manifest.json"), encoding="utf-8") as handle:
                self.assertEqual(json.load(handle), manifest)
            self.assertIn("CC BY-NC 4.0", manifest["licence"])
            decoder = next(e for e in manifest["files"] if e["path"] == "decoder.onnx")
            self.assertEqual(decoder["sha256"], sha256_file(os.path.join(directory, "decoder.onnx")))
            self.assertEqual(decoder["bytes"], len(b"decoder.onnx"))
            self.assertEqual(manifest["dims"]["headDim"], 128)
            self.assertEqual(len(manifest["tensors"]["decoder"]["inputs"]), 1 + 2 * 12)
            self.assertEqual(manifest["noRepeatNgram"], {"ngramSize": 30, "windowSize": 90, "exemptTokenIds": [128821, 128822]})

    def test_refuses_missing_role_and_paths_outside_the_pack(self):
        with tempfile.TemporaryDirectory() as directory:
            pack = self.make_pack(directory)
            del pack.files["draft"]
            with self.assertRaisesRegex(ValueError, "no draft file"):
                write_manifest(directory, pack)
            pack = self.make_pack(directory)
            pack.files["vision"] = ["../vision.onnx"]
            with self.assertRaisesRegex(ValueError, "plain names"):
                write_manifest(directory, pack)

    def test_tensor_names_follow_the_contract(self):
        self.assertEqual(expected_tensor_names("draft", 12)["inputs"], ["inputs_embeds", "hidden_states", "hidden_rows", "past.0.key", "past.0.value"])
        self.assertEqual(expected_tensor_names("decoder", 2)["outputs"][:4], ["candidate_logits", "candidate_ids", "last_hidden_state", "new.0.key"])

    def test_shared_buffer_form_names_lengths_and_present_buffers(self):
        self.assertEqual(expected_tensor_names("decoder", 2, "shared-buffer")["inputs"],
                         ["inputs_embeds", "seqlens_k", "total_sequence_length", "past.0.key", "past.0.value", "past.1.key", "past.1.value"])
        self.assertEqual(expected_tensor_names("draft", 12, "shared-buffer")["outputs"][3:], ["present.0.key", "present.0.value"])
        with tempfile.TemporaryDirectory() as directory:
            pack = self.make_pack(directory)
            pack.cache_form = "shared-buffer"
            manifest = write_manifest(directory, pack)
            self.assertEqual(manifest["cacheForm"], "shared-buffer")
            self.assertIn("seqlens_k", manifest["tensors"]["decoder"]["inputs"])
            pack.cache_form = "paged"
            with self.assertRaisesRegex(ValueError, "cache form"):
                write_manifest(directory, pack)

    def test_candidates_cover_what_the_no_repeat_rule_can_ban(self):
        with tempfile.TemporaryDirectory() as directory:
            manifest = write_manifest(directory, self.make_pack(directory))
            self.assertEqual(manifest["formatVersion"], FORMAT_VERSION)
            self.assertEqual(manifest["cacheForm"], "views")
            self.assertEqual(manifest["candidates"], 90 - 30 + 2)

    def test_draft_vocabulary_rule_and_manifest_field(self):
        # ids below the cut, every added token and EOS, sorted, inside the vocabulary
        self.assertEqual(draft_vocabulary_ids(20, 5, [18, 7, 3, 25], 12), [0, 1, 2, 3, 4, 7, 12, 18])
        with self.assertRaisesRegex(ValueError, "positive integer"):
            draft_vocabulary_ids(20, 0, [], 1)
        with tempfile.TemporaryDirectory() as directory:
            self.assertNotIn("draftVocabulary", write_manifest(directory, self.make_pack(directory)))
            pack = self.make_pack(directory)
            pack.draft_vocabulary = 32771
            self.assertEqual(write_manifest(directory, pack)["draftVocabulary"], 32771)
            pack.draft_vocabulary = 61  # fewer ids than the 62 candidates per row
            with self.assertRaisesRegex(ValueError, "at least the 62 candidates"):
                write_manifest(directory, pack)


if __name__ == "__main__":
    unittest.main()
