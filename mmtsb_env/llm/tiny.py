"""Build a tiny vision-language model offline: config, random weights, a trained tokenizer, a processor.

The weights are random, so what it says is noise; it exists to exercise the whole model path
(chat template, image processing, generation, token ids, logprobs, vLLM serving, RL updates)
without a download or a GPU. Two architectures are supported:

- ``idefics3`` (the SmolVLM architecture): loads in transformers and in vLLM on CPU;
- ``qwen2_vl``: loads in transformers (with :mod:`mmtsb_env.llm.processors`, no torchvision).

Command line::

    python -m mmtsb_env.llm.tiny DIR [--arch idefics3|qwen2_vl] [--seed 0]

Example (needs ``torch`` and ``transformers``):

>>> import tempfile, pathlib
>>> path = build_tiny_vlm(pathlib.Path(tempfile.mkdtemp()) / "m")  # doctest: +SKIP
>>> sorted(p.name for p in path.iterdir())[:2]                       # doctest: +SKIP
['chat_template.jinja', 'config.json']
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Iterator

from .templates import IMAGE_PLACEHOLDERS, chat_template

ARCHS = tuple(IMAGE_PLACEHOLDERS)
CHAT_SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
IDEFICS3_SPECIAL = ["<fake_token_around_image>", "<image>", "<global-img>", "<end_of_utterance>"] + [
    f"<row_{i}_col_{j}>" for i in range(1, 7) for j in range(1, 7)
]
QWEN_SPECIAL = ["<|vision_start|>", "<|vision_end|>", "<|image_pad|>", "<|video_pad|>"]

# Text model: 2 layers, hidden 64, 2 heads of 32 (1 KV head; vLLM CPU attention needs head_dim >= 32); long context so whole tool lists fit.
TEXT = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=2,
            num_key_value_heads=1, max_position_embeddings=32768)
IDEFICS3_IMAGE_SIDE = 32  # 32x32 image, 8x8 patches -> 16 patches -> 4 tokens after the 2x pixel shuffle
QWEN_MAX_PIXELS = 32 * 32  # -> 4x4 patches of 8 -> 2x2 merged = 4 image tokens


def _corpus() -> Iterator[str]:
    """Text the tokenizer learns from: our prompts, tool schemas, scenario queries, JSON tool calls."""
    from ..episode.prompts import _ASSISTANT_CODE, _ASSISTANT_TOOL, _USER

    yield from (_ASSISTANT_TOOL, _ASSISTANT_CODE, _USER)
    try:
        from ..scenario.suites import load_suite
        from ..tools.catalog import tools_in

        for schema in (t.schema for t in tools_in("full")):
            yield json.dumps(schema, ensure_ascii=False)
            fn = schema["function"]
            args = {k: "" for k in fn["parameters"].get("properties", {})}
            yield '<tool_call>{"name": "%s", "arguments": %s}</tool_call>' % (fn["name"], json.dumps(args))
        for scenario in load_suite("demo"):
            for rnd in scenario.rounds:
                yield rnd.query
                yield rnd.answer
    except Exception:  # pragma: no cover - the tokenizer still trains on the prompts alone
        pass
    yield "<tool_response>\n{\"ok\": true}\n</tool_response> [image 0] [image 1] ```python\nprint(x)\n```"


def train_tokenizer(special: list[str], vocab_size: int = 4096):
    """A byte-level BPE tokenizer trained on :func:`_corpus`, wrapped for transformers."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=special, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(list(_corpus()) * 2, trainer=trainer)
    return PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token="<|im_start|>", eos_token="<|im_end|>", pad_token="<|endoftext|>",
        unk_token=None, extra_special_tokens=[t for t in special if t not in CHAT_SPECIAL],
        model_max_length=TEXT["max_position_embeddings"],
    )


def _vocab_size(tokenizer) -> int:
    return (len(tokenizer) + 63) // 64 * 64


def _build_idefics3(tokenizer, template: str):
    from transformers import Idefics3Config, Idefics3ForConditionalGeneration, Idefics3Processor
    from transformers.models.idefics3.image_processing_pil_idefics3 import Idefics3ImageProcessorPil

    ids = tokenizer.convert_tokens_to_ids
    config = Idefics3Config(
        text_config=dict(model_type="llama", vocab_size=_vocab_size(tokenizer), rms_norm_eps=1e-5,
                         bos_token_id=ids("<|im_start|>"), eos_token_id=ids("<|im_end|>"),
                         pad_token_id=ids("<|endoftext|>"), tie_word_embeddings=False, **TEXT),
        vision_config=dict(hidden_size=64, intermediate_size=128, num_hidden_layers=1, num_attention_heads=2,
                           image_size=IDEFICS3_IMAGE_SIDE, patch_size=8),
        image_token_id=ids("<image>"), scale_factor=2, pad_token_id=ids("<|endoftext|>"),
    )
    model = Idefics3ForConditionalGeneration(config)
    image_processor = Idefics3ImageProcessorPil(
        do_image_splitting=False, size={"longest_edge": IDEFICS3_IMAGE_SIDE},
        max_image_size={"longest_edge": IDEFICS3_IMAGE_SIDE},
    )
    processor = Idefics3Processor(image_processor=image_processor, tokenizer=tokenizer, image_seq_len=4,
                                  chat_template=template)
    return model, processor


def _build_qwen2_vl(tokenizer, template: str):
    from transformers import Qwen2VLConfig, Qwen2VLForConditionalGeneration
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil

    from .processors import image_only_qwen_processor_class

    ids = tokenizer.convert_tokens_to_ids
    config = Qwen2VLConfig(
        text_config=dict(vocab_size=_vocab_size(tokenizer), rms_norm_eps=1e-6,
                         rope_parameters={"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [4, 6, 6]},
                         bos_token_id=ids("<|im_start|>"), eos_token_id=ids("<|im_end|>"),
                         pad_token_id=ids("<|endoftext|>"), **TEXT),
        vision_config=dict(depth=1, embed_dim=64, hidden_size=TEXT["hidden_size"], num_heads=2, patch_size=8,
                           spatial_merge_size=2, temporal_patch_size=2),
        image_token_id=ids("<|image_pad|>"), video_token_id=ids("<|video_pad|>"),
        vision_start_token_id=ids("<|vision_start|>"), vision_end_token_id=ids("<|vision_end|>"),
    )
    model = Qwen2VLForConditionalGeneration(config)
    image_processor = Qwen2VLImageProcessorPil(patch_size=8, merge_size=2, temporal_patch_size=2,
                                               size={"shortest_edge": 16 * 16, "longest_edge": QWEN_MAX_PIXELS})
    processor = image_only_qwen_processor_class()(image_processor=image_processor, tokenizer=tokenizer,
                                                  chat_template=template)
    return model, processor


def build_tiny_vlm(path: str | Path, arch: str = "idefics3", seed: int = 0, vocab_size: int = 4096) -> Path:
    """Write a tiny random-weight VLM of ``arch`` to ``path`` (created) and return the path.

    The folder loads with ``AutoModelForImageTextToText.from_pretrained`` and
    :func:`mmtsb_env.llm.processors.load_processor`; an ``idefics3`` folder also serves with vLLM.
    """
    import torch
    from transformers import GenerationConfig

    if arch not in ARCHS:
        raise ValueError(f"unknown arch {arch!r}; choose one of {', '.join(ARCHS)}")
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    special = CHAT_SPECIAL + (IDEFICS3_SPECIAL if arch == "idefics3" else QWEN_SPECIAL)
    tokenizer = train_tokenizer(special, vocab_size)
    template = chat_template(IMAGE_PLACEHOLDERS[arch])
    tokenizer.chat_template = template
    torch.manual_seed(seed)
    builder = _build_idefics3 if arch == "idefics3" else _build_qwen2_vl
    model, processor = builder(tokenizer, template)
    model = model.to(torch.float32).eval()
    eos, pad = tokenizer.convert_tokens_to_ids("<|im_end|>"), tokenizer.convert_tokens_to_ids("<|endoftext|>")
    model.generation_config = GenerationConfig(eos_token_id=eos, pad_token_id=pad, bos_token_id=tokenizer.bos_token_id)
    model.save_pretrained(str(path))
    processor.save_pretrained(str(path))
    tokenizer.save_pretrained(str(path))
    (path / "chat_template.jinja").write_text(template)
    if arch == "qwen2_vl":  # name the stock class, so tools with torchvision load it as usual
        for name in ("processor_config.json", "tokenizer_config.json"):
            data = json.loads((path / name).read_text())
            data["processor_class"] = "Qwen2VLProcessor"
            (path / name).write_text(json.dumps(data, indent=2) + "\n")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mmtsb_env.llm.tiny", description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", help="output folder (created)")
    parser.add_argument("--arch", default="idefics3", choices=ARCHS)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    path = build_tiny_vlm(args.dir, arch=args.arch, seed=args.seed)
    print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
