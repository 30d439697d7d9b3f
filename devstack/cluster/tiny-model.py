#!/usr/bin/env python3
"""Writes a tiny llama-architecture GGUF model with random weights: the model the cluster mode's real
llama.cpp server loads and answers with (garbage text, but real loading, tokenizing and sampling code).

No registry here serves model weights, so the tests make their own with the GGUF reference writer
(Debian's python3-gguf in the server image, PyPI's gguf elsewhere). The vocabulary is a SentencePiece-style
one: the three special tokens, the 256 byte tokens every input falls back to, and a few word pieces so
that common words are one token each. Everything is seeded: the same file every time.

Usage: tiny-model.py <output.gguf>
"""
import os
import sys

import gguf
import numpy as np

EMBEDDING = 64
LAYERS = 2
HEADS = 4
FEED_FORWARD = 128
CONTEXT = 512
WORDS = ["hello", "world", "model", "cluster", "answer", "the", "a", "kube", "air", "runway"]


def vocabulary():
    tokens = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)] + ["\u2581" + w for w in WORDS]
    types = [gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL, gguf.TokenType.CONTROL] + [gguf.TokenType.BYTE] * 256 + [gguf.TokenType.NORMAL] * len(WORDS)
    scores = [0.0] * 259 + [-float(i) for i in range(len(WORDS))]
    return tokens, scores, types


def write(path):
    rng = np.random.default_rng(34)
    tokens, scores, types = vocabulary()
    vocab = len(tokens)
    weights = lambda *shape: (rng.standard_normal(shape) * 0.02).astype(np.float32)
    ones = lambda n: np.ones(n, dtype=np.float32)

    # Written beside the target and renamed: a server started meanwhile never sees half a file.
    partial = path + ".partial"
    writer = gguf.GGUFWriter(partial, "llama")
    writer.add_name("kubeairunway-tiny")
    writer.add_context_length(CONTEXT)
    writer.add_embedding_length(EMBEDDING)
    writer.add_block_count(LAYERS)
    writer.add_feed_forward_length(FEED_FORWARD)
    writer.add_head_count(HEADS)
    writer.add_head_count_kv(HEADS)
    writer.add_rope_dimension_count(EMBEDDING // HEADS)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    writer.add_tokenizer_model("llama")
    writer.add_token_list(tokens)
    writer.add_token_scores(scores)
    writer.add_token_types(types)
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)
    writer.add_unk_token_id(0)
    writer.add_add_bos_token(True)
    writer.add_add_eos_token(False)

    # numpy shapes are ggml's dimensions reversed: (rows, columns) = (outputs, inputs).
    writer.add_tensor("token_embd.weight", weights(vocab, EMBEDDING))
    for i in range(LAYERS):
        writer.add_tensor(f"blk.{i}.attn_norm.weight", ones(EMBEDDING))
        for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
            writer.add_tensor(f"blk.{i}.{name}.weight", weights(EMBEDDING, EMBEDDING))
        writer.add_tensor(f"blk.{i}.ffn_norm.weight", ones(EMBEDDING))
        writer.add_tensor(f"blk.{i}.ffn_gate.weight", weights(FEED_FORWARD, EMBEDDING))
        writer.add_tensor(f"blk.{i}.ffn_up.weight", weights(FEED_FORWARD, EMBEDDING))
        writer.add_tensor(f"blk.{i}.ffn_down.weight", weights(EMBEDDING, FEED_FORWARD))
    writer.add_tensor("output_norm.weight", ones(EMBEDDING))
    writer.add_tensor("output.weight", weights(vocab, EMBEDDING))

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    os.replace(partial, path)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: tiny-model.py <output.gguf>")
    target = sys.argv[1]
    if os.path.exists(target):
        print(f"{target}: already there, not written again")
    else:
        os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
        write(target)
        print(f"{target}: written, {os.path.getsize(target)} bytes")
