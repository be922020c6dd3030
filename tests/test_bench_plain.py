"""Every benchmark runs from a plain install (`make install`: no pytest, no test extra): each
module of bench/ imports with the test tools made unimportable."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

BLOCKED = ("pytest", "pytest_django", "xdist", "hypothesis", "playwright")


def test_every_benchmark_imports_without_the_test_tools() -> None:
    modules = sorted(path.stem for path in (ROOT / "bench").glob("*.py"))
    code = (
        "import sys\n"
        f"for name in {BLOCKED!r}: sys.modules[name] = None\n"
        f"sys.path[:0] = [{str(ROOT / 'bench')!r}, {str(ROOT)!r}]\n"
        "failed = []\n"
        f"for module in {modules!r}:\n"
        "    try:\n"
        "        __import__(module)\n"
        "    except ImportError as error:\n"
        "        failed.append(f'{module}: {error}')\n"
        "print('\\n'.join(failed))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT
    )
    assert (result.returncode, result.stdout.strip()) == (0, "")
    assert len(modules) >= 20  # the whole folder was tried
