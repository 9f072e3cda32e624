"""The curated top-level API: every name in `nessus.__all__` resolves, and importing nessus
stays light (the names load when first used, so `nessus report order` starts fast)."""

from __future__ import annotations

import subprocess
import sys

import nessus


def test_every_exported_name_resolves():
    for name in nessus.__all__:
        assert getattr(nessus, name) is not None, name
    assert nessus.Dist.__module__ == "nessus.dist"
    assert nessus.State.__module__ == "nessus.game"
    assert sorted(dir(nessus)) == sorted(nessus.__all__)


def test_an_unknown_name_is_an_attribute_error():
    try:
        nessus.Nope  # noqa: B018
    except AttributeError as e:
        assert "Nope" in str(e)
    else:
        raise AssertionError("nessus.Nope resolved")


def test_import_nessus_loads_nothing_heavy():
    code = "import sys, nessus; print(sorted(m for m in ('numpy', 'polars', 'scipy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"
