"""CUDA C++ as a solution language, without a GPU or nvcc: detection, the host function and
its signature, build logs (real nvcc 13.0 / g++ output recorded in fixtures/nvcc), the cache
key and the "unavailable" reasons."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.drills import languages
from studio.drills.languages import cuda

FIXTURES = Path(__file__).parent / "fixtures" / "nvcc"


def _log(name: str) -> str:
    return (FIXTURES / f"{name}.log").read_text(encoding="utf-8")


# ----- which language a file is ----------------------------------------------------------------
def test_detects_cu_files_and_python_that_builds_cuda_inline(tmp_path):
    cu = tmp_path / "mine.cu"
    cu.write_text("__global__ void k() {}\n")
    inline = tmp_path / "inline.py"
    inline.write_text("from torch.utils.cpp_extension import load_inline\n"
                      "mod = load_inline('m', cpp_sources=decl, cuda_sources=src, functions=['f'])\n")
    cpp_only = tmp_path / "cpp.py"
    cpp_only.write_text("from torch.utils.cpp_extension import load_inline\nmod = load_inline('m', cpp_sources=s)\n")
    triton = tmp_path / "t.py"
    triton.write_text("import torch\nimport triton.language as tl\n")
    torch_file = tmp_path / "p.py"
    torch_file.write_text("import torch\n# import triton is only a comment here? no: it is at line start\n")
    assert languages.detect(cu) == "cuda"
    assert languages.detect(inline) == "cuda"
    assert languages.detect(cpp_only) == "torch"
    assert languages.detect(triton) == "triton"
    assert languages.detect(torch_file) == "torch"
    assert languages.resolve("auto", cu) == "cuda" and languages.resolve("torch", cu) == "torch"
    with pytest.raises(ValueError, match="unknown language 'rust'"):
        languages.resolve("rust", cu)
    assert languages.get("cuda").lexer == "cuda" and languages.get("cuda").needs_gpu


# ----- the host function -------------------------------------------------------------------------
SOURCE = '''#include <torch/types.h>
// torch::Tensor layernorm(torch::Tensor x);   a comment, not the definition
template <typename T>
__global__ void __launch_bounds__(256) layernorm_kernel(const T* x, T* y, int n) { }
__global__ void helper_kernel(float* y) { }

static __device__ float square(float v) { return v * v; }

torch::Tensor layernorm(const torch::Tensor& x, torch::Tensor weight, torch::Tensor bias,
                        double eps) {
    const char* s = "torch::Tensor layernorm(int) {";
    return x;
}
'''


def test_finds_the_host_function_and_its_line_not_comments_or_strings():
    host = cuda.find_host_function(SOURCE, "layernorm")
    assert host is not None and host.line == 9
    assert [p.kind for p in host.params] == ["Tensor", "Tensor", "Tensor", "float"]
    assert host.declaration == ("torch::Tensor layernorm(const torch::Tensor& x, torch::Tensor weight, "
                                "torch::Tensor bias, double eps);")
    assert cuda.signature_problem(host, "layernorm(x: Tensor, weight: Tensor, bias: Tensor, eps: float) -> Tensor") is None
    assert cuda.find_host_function(SOURCE, "rmsnorm") is None
    assert cuda.kernel_names(SOURCE) == {"layernorm_kernel": 4, "helper_kernel": 5}


@pytest.mark.parametrize("definition, message", [
    ("torch::Tensor softmax(torch::Tensor x, int64_t dim) {", "takes 2 parameter(s) (torch::Tensor x, int64_t dim), "
                                                             "but the drill calls softmax(x: Tensor) -> Tensor"),
    ("void softmax(torch::Tensor x) {", "returns void: it must allocate its output and return it"),
    ("static torch::Tensor softmax(torch::Tensor x) {", "is static"),
    ("torch::Tensor softmax(float* x) {", "parameter 1 of softmax (line 2) is `float*`: the binding passes"),
    ("torch::Tensor softmax(double x) {", "parameter 1 of softmax (line 2) is `double`, but the drill passes x: Tensor"),
])
def test_a_host_function_the_drill_cannot_call_is_explained_with_its_line(definition, message):
    host = cuda.find_host_function(f"#include <torch/types.h>\n{definition}\n  return x;\n}}\n", "softmax")
    assert host is not None
    assert message in (cuda.signature_problem(host, "softmax(x: Tensor) -> Tensor") or "")


def test_ints_may_arrive_as_floats_but_not_the_other_way():
    host = cuda.find_host_function("torch::Tensor f(torch::Tensor x, int64_t k, bool causal) {}", "f")
    assert cuda.signature_problem(host, "f(x: Tensor, k: int, causal: bool) -> Tensor") is None
    assert "but the drill passes k: float" in cuda.signature_problem(host, "f(x: Tensor, k: float, causal: bool) -> Tensor")


def test_blanking_keeps_lines_and_digit_separators():
    text = 'int a = 1\'000; // x\n/* y\n z */ const char* s = "q//";\n'
    blank = cuda.blank_comments(text)
    assert blank.count("\n") == text.count("\n") and len(blank) == len(text)
    assert "1'000" in blank and "x" not in blank and "q//" not in blank


# ----- build logs ----------------------------------------------------------------------------------
def test_nvcc_errors_are_read_with_file_line_and_context_in_order():
    diags = cuda.parse_build_log(_log("undefined"))
    assert [(d.severity, d.file, d.line) for d in diags] == [("error", "undefined.cu", 8), ("error", "undefined.cu", 15)]
    assert diags[0].message == 'identifier "idx" is undefined'
    assert diags[0].format().startswith('undefined.cu:8: error: identifier "idx" is undefined\n      if (i < n) y[idx]')
    assert diags[1].message == 'expected a ";"'


def test_warnings_come_after_errors_with_their_number():
    diags = cuda.parse_build_log(_log("warn"))
    assert [(d.severity, d.line) for d in diags] == [("error", 8), ("warning", 6)]
    assert diags[1].message == 'variable "unused" was declared but never referenced (#177-D)'
    assert any("detected during instantiation" in line for line in diags[0].context)


def test_each_error_of_a_template_is_kept_once():
    diags = cuda.parse_build_log(_log("template") + "\n" + _log("template"))
    assert [d.message for d in diags] == ['identifier "no_such_factor" is undefined', "type name is not allowed",
                                         "expected an expression"]


def test_a_ptxas_error_points_at_the_kernel_it_names():
    source = (FIXTURES / "smem.cu").read_text()
    diags = cuda.parse_build_log(_log("smem"), {"/home/u/smem.cu": source})
    assert len(diags) == 1
    assert diags[0].file == "/home/u/smem.cu" and diags[0].line == 1
    assert "uses too much shared data (0x40000 bytes, 0xc000 max) (kernel big_kernel)" in diags[0].message


def test_host_compiler_errors_and_notes():
    diags = cuda.parse_build_log(_log("gcc"))
    assert (diags[0].severity, diags[0].file, diags[0].line, diags[0].column) == ("error", "main.cpp", 3, 48)
    assert "cannot convert" in diags[0].message
    assert diags[-1].severity == "note"


def test_errors_in_headers_move_to_the_user_line_that_instantiated_them():
    log = ("/opt/torch/include/ATen/core/TensorBase.h(120): error: no instance of function template matches\n"
           "          detected during instantiation of \"void k<T>(T *) [with T=c10::Half]\" at line 42 of "
           "/home/u/mine.cu\n\n1 error detected in the compilation of \"/home/u/mine.cu\".\n")
    diags = cuda.parse_build_log(log, {"/home/u/mine.cu": "x"})
    assert (diags[0].file, diags[0].line) == ("/home/u/mine.cu", 42)
    assert cuda.first_error(diags, {"/home/u/mine.cu": "x"}) is diags[0]


def test_ninja_and_torch_chatter_is_not_a_diagnostic():
    log = ("Using /tmp/x as PyTorch extensions root...\nEmitting ninja build file /tmp/x/build.ninja...\n"
           "Building extension module m...\n[1/3] /usr/local/cuda/bin/nvcc -c cuda.cu\nFAILED: cuda.cuda.o\n"
           + _log("undefined") + "ninja: build stopped: subcommand failed.\n")
    diags = cuda.parse_build_log(log)
    assert [d.line for d in diags] == [8, 15]
    report = cuda.format_report(diags, log)
    assert report.index("undefined.cu:8") < report.index("undefined.cu:15") < report.index("----- compiler output")


def test_nvcc_fatal_and_linker_errors():
    diags = cuda.parse_build_log("nvcc fatal   : Unsupported gpu architecture 'compute_999'\n"
                                 "/usr/bin/ld: cannot find -lnope: No such file or directory\n"
                                 "collect2: error: ld returned 1 exit status\n")
    assert [d.message for d in diags] == ["nvcc: Unsupported gpu architecture 'compute_999'",
                                         "linker: cannot find -lnope: No such file or directory"]


# ----- the cache key ---------------------------------------------------------------------------------
def test_cache_key_changes_with_anything_that_changes_the_binary():
    base = dict(sources=["a"], flags=["-O3"], toolkit="12.8.93", torch_version="2.11.0", arch="9.0",
                python_abi="cpython-311")
    key = cuda.cache_key(**base)
    assert key == cuda.cache_key(**base) and len(key) == 64
    for change in (dict(sources=["a "]), dict(flags=["-O2"]), dict(toolkit="13.0.88"), dict(torch_version="2.12"),
                   dict(arch="8.0"), dict(python_abi="cpython-312")):
        assert cuda.cache_key(**{**base, **change}) != key, change


def test_line_of_a_source_string_in_a_python_file():
    text = 'import torch\nsrc = """\n__global__ void k() {}\n"""\n'
    assert cuda.line_of(text, "\n__global__ void k() {}\n") == 2
    assert cuda.line_of(text, "not there") is None
    assert cuda.line_of("x\nx\n", "x") is None   # twice: ambiguous


# ----- availability ------------------------------------------------------------------------------------
@pytest.mark.parametrize("facts, reason", [
    ({}, "PyTorch is not installed in the drill Python"),
    ({"torch": "2.13.0+cpu"}, "the drill Python's PyTorch (2.13.0+cpu) is a CPU-only build"),
    ({"torch": "2.11", "torch_cuda": "13.0"}, "no NVIDIA GPU is visible to the drill Python"),
    ({"torch": "2.11", "torch_cuda": "13.0", "gpu": "H100"}, "CUDA toolkit not found"),
    ({"torch": "2.11", "torch_cuda": "13.0", "gpu": "H100", "nvcc": "13.0.88"}, "ninja not found"),
])
def test_unavailable_says_why_and_what_to_do(facts, reason):
    ready = cuda.availability(facts)
    assert not ready.ok and ready.reason.startswith(reason) and ready.fix
    assert cuda.availability({"torch": "2.11", "torch_cuda": "13.0", "gpu": "H100", "nvcc": "13.0.88",
                              "ninja": True}).ok


def test_toolkit_message_is_the_one_the_issue_promises():
    ready = cuda.availability({"torch": "2.11", "torch_cuda": "13.0", "gpu": "H100"})
    assert ready.message().startswith("CUDA toolkit not found: install it, or set the drill Python to an "
                                      "environment that has it")
