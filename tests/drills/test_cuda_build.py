"""The worker's CUDA builder without nvcc: the host function is checked before anything is
compiled, a compiler failure becomes a compile_error on the user's line, the cache is used
on the second run, and a .py file's load_inline goes through the same path.

cpp_extension.load_inline is replaced by a fake that writes what the real one writes to
file descriptor 1 (a recorded nvcc log) and raises as the real one does; the real build is
covered by the GPU tests (test_cuda_gpu.py) on a machine with a toolkit.
"""

from __future__ import annotations

import json
import os
import types
from pathlib import Path

import pytest

pytest.importorskip("torch")

from studio.drills.harness import cuda_build  # noqa: E402
from studio.drills.harness.cuda_build import BuildFailed, CudaBuilder  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures" / "nvcc"
SIGNATURE = "add(x: Tensor, y: Tensor) -> Tensor"

GOOD = """#include <torch/types.h>
__global__ void add_kernel(const float* x, const float* y, float* out, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + y[i];
}

torch::Tensor add(torch::Tensor x, torch::Tensor y) {
  auto out = torch::empty_like(x);
  return out;
}
"""


@pytest.fixture
def builder(tmp_path, monkeypatch):
    def make(text: str, name: str = "mine.cu") -> CudaBuilder:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        b = CudaBuilder(str(path), tmp_path / "cache")
        monkeypatch.setattr(b, "toolkit", lambda: ("13.0", "9.0"))
        return b
    return make


class FakeLoadInline:
    """Stands in for cpp_extension.load_inline: prints `log` where ninja would, then fails
    with `error` or returns a module with the asked functions."""

    def __init__(self, log: str = "", error: Exception | None = None) -> None:
        self.log, self.error, self.calls = log, error, []

    def __call__(self, name, cpp_sources, cuda_sources=None, functions=None, **kwargs):
        self.calls.append({"name": name, "cpp": cpp_sources, "cuda": cuda_sources, "functions": functions,
                           **kwargs})
        os.write(1, self.log.encode())
        if self.error is not None:
            raise self.error
        Path(kwargs["build_directory"], f"{name}.so").write_bytes(b"\x7fELF fake")
        module = types.SimpleNamespace()
        for fn in functions or []:
            setattr(module, fn, lambda *a, _fn=fn: _fn)
        return module


def _use(monkeypatch, fake):
    from torch.utils import cpp_extension

    monkeypatch.setattr(cpp_extension, "load_inline", fake)


def test_no_host_function_is_missing_entry_before_any_compiling(builder, monkeypatch):
    fake = FakeLoadInline()
    _use(monkeypatch, fake)
    b = builder("__global__ void add_kernel(float* x) {}\n")
    with pytest.raises(BuildFailed) as caught:
        b.build_file("add", SIGNATURE)
    assert caught.value.info["kind"] == "missing_entry"
    assert "defines no host function `add`" in caught.value.info["message"]
    assert "torch::Tensor add(...)" in caught.value.info["message"]
    assert fake.calls == []


def test_wrong_signature_names_the_line_before_any_compiling(builder, monkeypatch):
    fake = FakeLoadInline()
    _use(monkeypatch, fake)
    b = builder("#include <torch/types.h>\n\n\ntorch::Tensor add(torch::Tensor x) {\n  return x;\n}\n")
    with pytest.raises(BuildFailed) as caught:
        b.build_file("add", SIGNATURE)
    info = caught.value.info
    assert info["kind"] == "wrong_signature" and info["line"] == 4
    assert info["message"].startswith("mine.cu: ")
    assert fake.calls == []


def test_a_good_file_is_built_with_a_line_directive_and_its_declaration(builder, monkeypatch):
    fake = FakeLoadInline()
    _use(monkeypatch, fake)
    b = builder(GOOD)
    fn = b.build_file("add", SIGNATURE)
    assert fn() == "add"
    call = fake.calls[0]
    assert call["functions"] == ["add"]
    assert call["cpp"] == ["torch::Tensor add(torch::Tensor x, torch::Tensor y);"]
    assert call["cuda"][0].startswith(f'#line 1 "{b.user_file}"\n#include <torch/types.h>')
    assert call["extra_cuda_cflags"][:2] == cuda_build.DEFAULT_FLAGS and call["verbose"] is True
    record = b.records[0]
    assert not record.cached and record.arch == "9.0" and record.toolkit == "13.0"
    assert b.kernels == {"add_kernel": 2}


def test_the_second_run_imports_the_cached_build_without_compiling(builder, monkeypatch, tmp_path):
    fake = FakeLoadInline(log="[1/3] c++ main.cpp\n")
    _use(monkeypatch, fake)
    first = builder(GOOD)
    first.build_file("add", SIGNATURE)
    imported = []

    def fake_import(name, library):
        imported.append(library)
        return types.SimpleNamespace(add=lambda: "cached add")

    monkeypatch.setattr(cuda_build, "_import_library", fake_import)
    second = builder(GOOD)
    assert second.build_file("add", SIGNATURE)() == "cached add"
    assert len(fake.calls) == 1, "the cache was not used"
    record = second.records[0]
    assert record.cached and record.report.startswith("first build took ")
    assert imported[0].name == "drill_add.so" and imported[0].parent.parent == tmp_path / "cache"

    # Any change to the source is a new build.
    third = builder(GOOD.replace("x[i] + y[i]", "y[i] + x[i]"))
    third.build_file("add", SIGNATURE)
    assert len(fake.calls) == 2


def test_a_folder_without_the_built_marker_is_rebuilt(builder, monkeypatch):
    """A build killed half way leaves a .so but no built.json: never import that."""
    fake = FakeLoadInline()
    _use(monkeypatch, fake)
    builder(GOOD).build_file("add", SIGNATURE)
    folder = next((Path(fake.calls[0]["build_directory"])).parent.iterdir())
    (folder / "built.json").unlink()
    builder(GOOD).build_file("add", SIGNATURE)
    assert len(fake.calls) == 2


def test_warnings_of_a_build_are_kept_and_shown_again_from_the_cache(builder, monkeypatch):
    source = (FIXTURES / "warn.cu").read_text(encoding="utf-8")
    b = builder(source, "warn.cu")
    log = (FIXTURES / "warn.log").read_text(encoding="utf-8")
    _use(monkeypatch, FakeLoadInline(log=log))
    b.load_inline("m", ["void f();"], [f'#line 1 "{b.user_file}"\n{source}'], functions=["f"])
    b.sources[b.user_file] = source
    assert b.records[0].warnings, "the warning in the log was lost"
    assert all("warning" in w for w in b.records[0].warnings)


def test_a_compile_error_names_the_users_file_and_first_line(builder, monkeypatch):
    source = (FIXTURES / "undefined.cu").read_text(encoding="utf-8")
    log = (FIXTURES / "undefined.log").read_text(encoding="utf-8")
    b = builder(source, "undefined.cu")
    b.sources[b.user_file] = source
    # The real log names the file as nvcc saw it; here it is the user's path.
    log = log.replace("undefined.cu(", f"{b.user_file}(")
    _use(monkeypatch, FakeLoadInline(log=log, error=RuntimeError("Error building extension 'm'")))
    with pytest.raises(BuildFailed) as caught:
        b.load_inline("m", ["void f();"], [source], functions=["f"])
    info = caught.value.info
    assert info["kind"] == "compile_error"
    assert info["file"] == b.user_file and info["line"] == 8
    assert info["message"].startswith('undefined.cu:8: identifier "idx" is undefined')
    assert "more error" in info["message"] and "see the console" in info["message"]
    assert 'identifier "idx" is undefined' in info["traceback"]
    assert not list(Path(b.cache_root).glob("*/built.json")), "a failed build was marked as built"


def test_a_failure_with_no_diagnostic_keeps_the_last_line_and_the_log(builder, monkeypatch):
    b = builder(GOOD)
    _use(monkeypatch, FakeLoadInline(log="ninja: build stopped: subcommand failed.\n",
                                     error=RuntimeError("Error building extension 'm'")))
    with pytest.raises(BuildFailed) as caught:
        b.build_file("add", SIGNATURE)
    info = caught.value.info
    assert info["kind"] == "compile_error" and info["line"] is None
    assert info["message"] == "the CUDA build failed: Error building extension 'm'"
    assert "subcommand failed" in info["traceback"]


def test_an_undefined_symbol_at_load_is_explained(builder, monkeypatch):
    b = builder(GOOD)
    error = ImportError("/cache/x/drill_add.so: undefined symbol: _Z6squaref")
    _use(monkeypatch, FakeLoadInline(error=error))
    with pytest.raises(BuildFailed) as caught:
        b.build_file("add", SIGNATURE)
    message = caught.value.info["message"]
    assert message.startswith("the built module could not be loaded: ")
    assert "declared but never defined?" in message


def test_python_load_inline_is_intercepted_with_the_sources_line(builder, monkeypatch):
    fake = FakeLoadInline()
    _use(monkeypatch, fake)
    text = ('from torch.utils.cpp_extension import load_inline\n'
            'src = """\n__global__ void k(float* y) { y[0] = 1; }\n"""\n')
    b = builder(text, "inline.py")
    from torch.utils import cpp_extension

    with b.intercepting_load_inline():
        module = cpp_extension.load_inline("m", "void f();", "\n__global__ void k(float* y) { y[0] = 1; }\n",
                                           ["f"])
    assert module.f() == "f"
    assert fake.calls[0]["cuda"][0].startswith(f'#line 2 "{b.user_file}"')
    assert fake.calls[0]["functions"] == ["f"]
    assert cpp_extension.load_inline is fake, "the original load_inline was not put back"
    assert "k" in b.kernels


def test_unavailable_toolkit_is_a_verdict_not_a_traceback(tmp_path, monkeypatch):
    path = tmp_path / "mine.cu"
    path.write_text(GOOD)
    b = CudaBuilder(str(path), tmp_path / "cache")
    import studio.drills.languages.probe as probe

    monkeypatch.setattr(probe, "facts", lambda: {"torch": "2.13.0+cpu", "torch_cuda": None, "gpu": None,
                                                  "capability": None, "cuda_home": None, "nvcc": None,
                                                  "nvcc_path": None, "ninja": True})
    with pytest.raises(BuildFailed) as caught:
        b.build_file("add", SIGNATURE)
    assert caught.value.info["kind"] == "cuda_unavailable"
    assert "CPU-only build" in caught.value.info["message"]


def test_user_line_and_signature_mismatch_words():
    assert cuda_build.user_line("mine.cu:12: add: x must be a CUDA tensor", "/a/b/mine.cu") == 12
    assert cuda_build.user_line("other.cu:12: oops", "/a/b/mine.cu") is None
    exc = TypeError("add(): incompatible function arguments. The following argument types are supported:\n"
                    "    1. (arg0: torch.Tensor) -> torch.Tensor\n\nInvoked with: tensor, tensor")
    assert cuda_build.signature_mismatch(exc, "add", SIGNATURE) == (
        "the host function add takes (arg0: torch.Tensor) -> torch.Tensor, but the drill calls " + SIGNATURE)
    assert cuda_build.signature_mismatch(ValueError("x"), "add", SIGNATURE) is None


def test_kernel_watch_sorts_own_from_library_kernels():
    watch = cuda_build.KernelWatch(None, {"add_kernel"})
    watch.kernels = ["void (anonymous namespace)::add_kernel<float>(float const*, float*, long)",
                     "sm90_xmma_gemm_f16f16_f32_tn_n_tilesize128x128x64", "ampere_fp16_s16816gemm",
                     "void at::native::vectorized_elementwise_kernel<4, add>(...)"]
    assert watch.own_launches == 1
    assert watch.library_kernels == ["ampere_fp16_s16816gemm", "sm90_xmma_gemm_f16f16_f32_tn_n_tilesize128x128x64"]
    assert json.loads(json.dumps(watch.kernels))  # plain strings, reported to the judge as they are


def test_cuda_runtime_errors_get_a_hint_and_the_single_launch_line(tmp_path):
    one = tmp_path / "one.cu"
    one.write_text("// kernel<<<2, 2048>>> in a comment is not a launch\n__global__ void k() {}\n"
                   "void f() {\n  k<<<1, 2048>>>();\n}\n")
    hint = cuda_build.cuda_error_hint("CUDA error: invalid configuration argument\nCUDA kernel errors ...", str(one))
    assert hint is not None and hint.line == 4 and "1024 threads per block" in hint.text
    two = tmp_path / "two.cu"
    two.write_text("void f() {\n  k<<<1, 1>>>();\n  k<<<1, 2>>>();\n}\n")
    assert cuda_build.cuda_error_hint("CUDA error: invalid configuration argument", str(two)).line is None
    oob = cuda_build.cuda_error_hint("CUDA error: an illegal memory access was encountered", str(one))
    assert oob.line is None and "outside its buffers" in oob.text
    assert cuda_build.cuda_error_hint("CUDA error: out of memory", str(one)) is None


def test_the_build_targets_this_gpu_and_hopper_gets_its_arch_specific_features(tmp_path, monkeypatch):
    import studio.drills.languages.probe as probe

    ready = {"torch": "2.11.0+cu130", "torch_cuda": "13.0", "gpu": "NVIDIA H100", "capability": "9.0",
             "cuda_home": "/usr/local/cuda", "nvcc": "13.0.88", "nvcc_path": "/usr/local/cuda/bin/nvcc", "ninja": True}
    monkeypatch.setattr(probe, "facts", lambda: dict(ready))
    monkeypatch.delenv("TORCH_CUDA_ARCH_LIST", raising=False)
    path = tmp_path / "k.cu"
    path.write_text(GOOD)
    assert CudaBuilder(str(path), tmp_path).toolkit() == ("13.0.88", "9.0a")
    assert os.environ["TORCH_CUDA_ARCH_LIST"] == "9.0a"
    monkeypatch.setattr(probe, "facts", lambda: {**ready, "capability": "8.9"})
    monkeypatch.delenv("TORCH_CUDA_ARCH_LIST")
    assert CudaBuilder(str(path), tmp_path).toolkit() == ("13.0.88", "8.9")
    monkeypatch.setenv("TORCH_CUDA_ARCH_LIST", "8.0")          # the user's own choice wins
    assert CudaBuilder(str(path), tmp_path).toolkit() == ("13.0.88", "8.0")


def test_nvcc_gets_torchs_string_abi_and_the_binding_the_same_gcc(builder, monkeypatch, tmp_path):
    import torch

    fake = FakeLoadInline()
    _use(monkeypatch, fake)
    gcc_dir = tmp_path / "gcc" / "bin"
    gcc_dir.mkdir(parents=True)
    for tool in ("gcc", "g++"):
        (gcc_dir / tool).write_text("#!/bin/sh\n")
        (gcc_dir / tool).chmod(0o755)
    monkeypatch.setenv("CC", str(gcc_dir / "gcc"))
    monkeypatch.delenv("CXX", raising=False)
    builder(GOOD).build_file("add", SIGNATURE)
    abi = int(bool(torch._C._GLIBCXX_USE_CXX11_ABI))
    assert fake.calls[0]["extra_cuda_cflags"] == [*cuda_build.DEFAULT_FLAGS, f"-D_GLIBCXX_USE_CXX11_ABI={abi}"]
    assert os.environ["CXX"] == str(gcc_dir / "g++")
    monkeypatch.setenv("CXX", "/usr/bin/c++")              # the user's own choice stays
    builder(GOOD.replace("x[i] + y[i]", "y[i] + x[i]")).build_file("add", SIGNATURE)
    assert os.environ["CXX"] == "/usr/bin/c++"


@pytest.mark.skipif(not (__import__("shutil").which("g++") and __import__("shutil").which("nm")),
                    reason="needs g++ and nm")
def test_a_compiler_that_links_its_own_cxx_runtime_is_set_aside(tmp_path, monkeypatch):
    """Seen on an H100 machine: $CC/$CXX named a GCC that links libstdc++ statically into
    shared libraries, and a TORCH_CHECK with a formatted message killed the worker. Such a
    toolchain is found by a probe build and the system's compilers are used instead."""
    static = tmp_path / "static-g++"
    static.write_text('#!/bin/sh\nexec g++ -static-libstdc++ "$@"\n')
    static.chmod(0o755)
    cuda_build._embeds.clear()
    monkeypatch.setenv("CC", str(static))
    monkeypatch.setenv("CXX", str(static))
    note = cuda_build.host_compilers()
    assert note and "links its own copy of the C++ runtime" in note and str(static) in note
    assert "CC" not in os.environ and "CXX" not in os.environ
    monkeypatch.setenv("CXX", "g++")          # an ordinary compiler is kept
    assert cuda_build.host_compilers() is None and os.environ["CXX"] == "g++"
