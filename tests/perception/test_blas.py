"""One BLAS thread for the glyph library's small products, restored afterwards."""

from __future__ import annotations

import numpy as np
import pytest

from droidpilot.perception.blas import _openblas, one_thread


def test_products_inside_are_right_and_the_thread_count_comes_back() -> None:
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    funcs = _openblas()
    if funcs is None:
        pytest.skip("numpy is not linked with OpenBLAS here")
    get = funcs[0]
    before = get()
    with one_thread():
        assert get() == 1
        with one_thread():
            assert np.array_equal(a @ a.T, np.einsum("ij,kj->ik", a, a))
        assert get() == 1
    assert get() == before


def test_an_error_inside_restores_the_thread_count() -> None:
    funcs = _openblas()
    if funcs is None:
        pytest.skip("numpy is not linked with OpenBLAS here")
    before = funcs[0]()
    with pytest.raises(ValueError), one_thread():
        raise ValueError("inside")
    assert funcs[0]() == before
