"""What the classifier sees: the glyph descriptor (glyphs.descriptor) of a candidate's foreground mask.

The same descriptor every candidate reading already carries, so classifying costs one small matrix
product per query and training sees exactly what ranking does. ``FEATURE_VERSION`` names the descriptor
and its layout constants: weights trained on another descriptor are refused (model.load_model).
"""

from __future__ import annotations

import numpy as np

from droidpilot.perception.icons.describe import FG_THRESHOLD, foreground_mask
from droidpilot.perception.icons.glyphs import descriptor, strokes
from droidpilot.perception.icons.learned.augment import Sample


def feature_version() -> str:
    """The descriptor's name and every constant that shapes it; a change to any of them is a new version."""
    d, s = descriptor, strokes
    return (f"glyph-descriptor/v1 grid={d.GRID} edge={d.EDGE_SIDE}x{d.CELLS}x{d.BINS} ink={d.INK_WEIGHT} "
            f"lines={s.SIDE}/{s.THICK}/{s.PEN} fg={FG_THRESHOLD} size={d.SIZE}")


FEATURE_SIZE = descriptor.SIZE


def sample_features(sample: Sample) -> np.ndarray | None:
    """The descriptor of the sample's foreground inside its box, as ranking computes it; None when the
    box holds no foreground."""
    _, mask, _ = foreground_mask(sample.image, sample.box, sample.background)
    if int(mask.sum()) < 4:
        return None
    return descriptor.mask_descriptor(mask)
