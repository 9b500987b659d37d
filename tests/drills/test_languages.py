"""How a solution file's language is told when the user does not say (studio.drills.languages)."""


def test_for_problem_sets_a_file_is_triton_when_it_has_a_triton_kernel_not_just_the_import():
    """GPU MODE's pmpp vectorsum solution imports triton and triton.language unused and sums
    with torch.compile: judged as Triton it "launched no Triton kernel" (H200); it is PyTorch.
    For our own drills the import alone still makes a Triton solution (one that then computes
    with torch fails: tests/drills/bad_kernels/softmax_torch_only.py)."""
    from functools import partial

    from studio.drills import languages

    unused = "import torch\nimport triton\nimport triton.language as tl\n\ndef f(x):\n    return x.sum()\n"
    assert languages.detect_text("s.py", unused) == "triton"
    detect_text = partial(languages.detect_text, own_kernel=True)
    assert detect_text("s.py", unused) == "torch"
    for kernel in ("import triton\n\n@triton.jit\ndef k(x_ptr):\n    pass\n",
                   "from triton import jit\n\n@jit\ndef k(x_ptr):\n    pass\n",
                   "import triton\n\n@triton.autotune(configs=[], key=[])\n@triton.jit\ndef k(x_ptr):\n    pass\n",
                   "import triton\n\ndef k(x_ptr):\n    pass\n\nk = triton.jit(k)\n"):
        assert detect_text("s.py", kernel) == "triton", kernel
    assert detect_text("s.py", "import torch\n\ndef f(x):\n    return x * 2\n") == "torch"
