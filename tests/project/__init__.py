import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).parents[2]


def benchmark_script(name: str) -> ModuleType:
    """A script of projects/benchmarks/, imported as a module."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "projects" / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
