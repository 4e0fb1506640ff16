"""Processor loading that works without torchvision (which does not install beside our CPU torch).

Qwen2-VL's stock processor builds a video processor that needs torchvision; images never need it.
:class:`ImageOnlyQwen2VLProcessor` is the same processor without the video part, and
:func:`load_processor` falls back to it when the stock one cannot be built.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

QWEN_VL_TYPES = ("qwen2_vl", "qwen2_5_vl")


def image_only_qwen_processor_class():
    """Build (lazily: transformers is optional) the Qwen2-VL processor subclass without video."""
    from transformers import Qwen2VLProcessor

    class ImageOnlyQwen2VLProcessor(Qwen2VLProcessor):
        """Qwen2-VL processor for images only: no video processor, so no torchvision."""

        def __init__(self, image_processor=None, tokenizer=None, chat_template=None, **kwargs: Any) -> None:
            self.image_token = getattr(tokenizer, "image_token", None) or "<|image_pad|>"
            self.video_token = getattr(tokenizer, "video_token", None) or "<|video_pad|>"
            self.image_token_id = tokenizer.convert_tokens_to_ids(self.image_token)
            self.video_token_id = tokenizer.convert_tokens_to_ids(self.video_token)
            super(Qwen2VLProcessor, self).__init__(image_processor, tokenizer, chat_template=chat_template)

        def __call__(self, *args: Any, **kwargs: Any):
            out = super().__call__(*args, **kwargs)
            if kwargs.get("return_tensors") not in ("np", "numpy"):
                _image_fields_as_tensors(out)
            return out

    return ImageOnlyQwen2VLProcessor


IMAGE_FIELDS = ("pixel_values", "image_grid_thw")


def _image_fields_as_tensors(out: Any) -> None:
    """Image fields as torch tensors, as the stock (torchvision) processor returns them even unasked.

    The PIL image processor returns numpy arrays when no ``return_tensors`` is given; callers that
    concatenate per-prompt fields (TRL's ``environment_factory`` path) then get lists of arrays
    and fail on ``image_grid_thw.prod``. Text fields are left as they are.
    """
    import numpy as np
    import torch

    for key in IMAGE_FIELDS:
        value = out.get(key) if hasattr(out, "get") else None
        if value is not None and not isinstance(value, torch.Tensor):
            out[key] = torch.as_tensor(np.asarray(value))


def _pil_image_processor(path: str | Path, model_type: str):
    if model_type in QWEN_VL_TYPES:
        from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil

        return Qwen2VLImageProcessorPil.from_pretrained(str(path))
    from transformers import AutoImageProcessor

    return AutoImageProcessor.from_pretrained(str(path))


def load_processor(path: str | Path, model_type: str | None = None, **kwargs: Any):
    """``AutoProcessor.from_pretrained(path)``, or for Qwen2-VL-family models without torchvision,
    the image-only processor (PIL image processor + tokenizer + the saved chat template)."""
    from transformers import AutoProcessor, AutoTokenizer

    try:
        processor = AutoProcessor.from_pretrained(str(path), **kwargs)
    except (ImportError, ValueError, OSError, TypeError, AttributeError, KeyError):
        if model_type not in QWEN_VL_TYPES:
            raise
    else:
        if hasattr(processor, "image_processor") or model_type not in QWEN_VL_TYPES:
            return processor
    tokenizer = AutoTokenizer.from_pretrained(str(path), **kwargs)
    cls = image_only_qwen_processor_class()
    return cls(image_processor=_pil_image_processor(path, model_type), tokenizer=tokenizer,
               chat_template=getattr(tokenizer, "chat_template", None))
