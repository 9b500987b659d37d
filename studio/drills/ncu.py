"""Nsight Compute for one benchmark point: which metrics, how to read ncu's CSV, what they say.

Pure Python (no torch, no Qt): the GUI imports it to word the menu and draw a profile, the
CLI and studio/drills/profiler.py to run ncu and read what it wrote.

* METRICS: the fixed set collected for every kernel, each with a short English and Chinese
  explanation of what it means and what moves it, and the roadmap node that covers it.
* parse_csv: ncu's `--csv` output, either `--page raw` (one row per kernel, one column per
  metric, a units row under the header) or `--page details` (one row per metric), into
  per-kernel records with every value in base units (bytes, nanoseconds, percent). Lines
  that are not CSV (==PROF==, ==WARNING==, the program's own prints) are skipped; a metric
  the GPU or ncu version did not give is simply absent (None), never a crash.
* verdict: memory-bound / compute-bound / latency-bound (neither near its peak) for one
  kernel, with what holds a latency-bound kernel back (occupancy and its limiter, the top
  warp stalls), and warnings of extra DRAM traffic against the drill's bytes model and of
  uncoalesced loads.
* unavailable_reason: ncu missing, no GPU, or no permission to read the counters
  (ERR_NVGPUCTRPERM), each with what to do: unavailable is not an error.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable

# ncu ships with the CUDA toolkit; STUDIO_NCU points at another one.
NCU_ENV = "STUDIO_NCU"
NCU_CANDIDATES = ("/usr/local/cuda/bin/ncu", "/opt/nvidia/nsight-compute/ncu")

# Sections asked of ncu (names of the section files shipped with it); the explicit metrics
# below are collected as well, so a section renamed in a later version loses nothing we read.
SECTIONS = ("SpeedOfLight", "MemoryWorkloadAnalysis", "Occupancy", "LaunchStats", "WarpStateStats")

NEAR_PEAK_PCT = 60.0          # ncu's own speed-of-light rules call 60 % of peak "high"
EXTRA_TRAFFIC_RATIO = 1.25    # DRAM bytes above the model by this much: something is read twice
SHORT_TRAFFIC_RATIO = 0.75    # below: part of the data came from L2, or the model over-counts
LOW_SECTOR_USE_PCT = 50.0     # under half of each fetched 32-byte sector used: uncoalesced loads
TINY_KERNEL_NS = 5_000.0      # a kernel this short is dominated by launch and ramp-up
MAX_COALESCED_SECTORS = 16    # 32 threads x 16-byte vector loads = 512 bytes = 16 sectors per request


@dataclass(frozen=True)
class MetricInfo:
    key: str                      # our short name
    names: tuple[str, ...]        # ncu metric names, the first one present wins
    unit: str                     # "ns" | "bytes" | "pct" | "count" | "ratio"
    label_en: str
    label_zh: str
    explain_en: str
    explain_zh: str
    node: str                     # roadmap node id (content/roadmap.yaml)


METRICS: tuple[MetricInfo, ...] = (
    MetricInfo("duration_ns", ("gpu__time_duration.sum",), "ns", "Duration", "耗时",
               "GPU time of one launch under the profiler (caches flushed, clocks as they run). Moved by everything "
               "below; compare it with the bench's timing, not with other machines.",
               "剖析器下单次启动的 GPU 时间（缓存已清空、时钟不锁定）。下面每一项都会影响它；与基准测试的计时对照，不要跨机器比较。",
               "profiling.nsight.ncu"),
    MetricInfo("dram_read_bytes", ("dram__bytes_read.sum",), "bytes", "DRAM bytes read", "DRAM 读字节数",
               "Bytes read from HBM. Above the drill's bytes model means data is read more than once (a second pass, "
               "reloads that miss L2, sectors fetched and half thrown away).",
               "从 HBM 读取的字节数。超过题目的字节模型说明数据被读了不止一次（第二遍扫描、L2 未命中的重复加载、取回的 sector 只用了一半）。",
               "gpu.memory-hierarchy"),
    MetricInfo("dram_write_bytes", ("dram__bytes_write.sum",), "bytes", "DRAM bytes written", "DRAM 写字节数",
               "Bytes written to HBM. Above the output size means partial-sector writes or intermediate results "
               "spilled to memory.",
               "写入 HBM 的字节数。超过输出大小说明有不满 sector 的写入，或中间结果写回了显存。",
               "gpu.memory-hierarchy"),
    MetricInfo("dram_pct", ("dram__throughput.avg.pct_of_peak_sustained_elapsed",
                            "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"), "pct",
               "DRAM throughput (% of peak)", "DRAM 吞吐（占峰值 %）",
               "How busy HBM was over the kernel's time. Near peak: the kernel is memory-bound, and only moving fewer "
               "bytes makes it faster.",
               "内核运行期间 HBM 的繁忙程度。接近峰值即访存 bound，只有少搬字节才能更快。",
               "kernels.fusion-roofline.roofline-model"),
    MetricInfo("memory_pct", ("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",), "pct",
               "Memory throughput (% of peak)", "访存吞吐（占峰值 %）",
               "The busiest of DRAM, L2 and L1 against its own peak (speed of light, memory side). High while DRAM is "
               "low: the bottleneck is on chip (L1/L2 traffic, shared memory).",
               "DRAM、L2、L1 中最忙的一级相对其峰值（访存侧的 Speed of Light）。它高而 DRAM 低时，瓶颈在片上（L1/L2 流量、shared memory）。",
               "profiling.nsight.ncu"),
    MetricInfo("sm_pct", ("sm__throughput.avg.pct_of_peak_sustained_elapsed",), "pct",
               "Compute (SM) throughput (% of peak)", "计算（SM）吞吐（占峰值 %）",
               "The busiest SM pipeline against its peak. Near peak: compute-bound, so fewer or cheaper instructions "
               "(tensor cores, less index math) help; low together with memory: latency-bound.",
               "最忙的 SM 流水线相对其峰值。接近峰值即计算 bound，需要更少或更便宜的指令（tensor core、更少的下标计算）；与访存一起偏低则是延迟 bound。",
               "profiling.methodology.bound-identification"),
    MetricInfo("l2_hit_pct", ("lts__t_sector_hit_rate.pct",), "pct", "L2 hit rate", "L2 命中率",
               "Share of L2 sector lookups served by L2. A streaming kernel reads each byte once and sits low; a low "
               "rate where tiles are reused means the reuse distance is too long (reorder programs, e.g. grouped "
               "launch order).",
               "L2 sector 查询中由 L2 直接命中的比例。流式 kernel 每个字节只读一次，命中率本就低；本应复用 tile 却偏低，说明复用距离太长（调整 program 顺序，如分组发射）。",
               "kernels.matmul.grouped-launch"),
    MetricInfo("l1_hit_pct", ("l1tex__t_sector_hit_rate.pct",), "pct", "L1 hit rate", "L1 命中率",
               "Share of L1 sector lookups served by L1. Neighbouring threads re-reading the same lines raise it; "
               "strided access that touches a new line per thread lowers it.",
               "L1 sector 查询中由 L1 命中的比例。相邻线程反复读同一缓存行会提高它；每个线程都碰新缓存行的跨步访问会降低它。",
               "gpu.memory-hierarchy"),
    MetricInfo("occupancy_achieved_pct", ("sm__warps_active.avg.pct_of_peak_sustained_active",), "pct",
               "Achieved occupancy", "实际占用率",
               "Average resident warps per SM against the maximum. Below theoretical: blocks end unevenly, the grid "
               "is too small for the GPU (tail effect), or the warps of a block wait on each other.",
               "每个 SM 平均驻留 warp 数与上限之比。低于理论值：block 结束时间不齐、grid 太小填不满 GPU（尾部效应），或 block 内 warp 互相等待。",
               "kernels.cuda-threads.occupancy"),
    MetricInfo("occupancy_theoretical_pct", ("sm__maximum_warps_per_active_cycle_pct",), "pct",
               "Theoretical occupancy", "理论占用率",
               "The most warps the launch configuration lets an SM hold; the limiter rows say which resource caps it "
               "(registers per thread, shared memory per block, block size).",
               "启动配置允许一个 SM 驻留的最多 warp 数；下面的限制项说明是哪种资源封顶（每线程寄存器、每 block shared memory、block 大小）。",
               "kernels.cuda-threads.occupancy"),
    MetricInfo("limit_registers", ("launch__occupancy_limit_registers",), "count",
               "Block limit: registers", "block 上限：寄存器",
               "Blocks per SM the register file allows. The smallest limit decides occupancy; fewer registers per "
               "thread (smaller tiles, fewer live values, Triton's num_warps/maxnreg) raise it.",
               "寄存器文件允许每个 SM 驻留的 block 数。最小的限制项决定占用率；减少每线程寄存器（更小 tile、更少活跃变量）可提高它。",
               "kernels.cuda-threads.occupancy"),
    MetricInfo("limit_shared_mem", ("launch__occupancy_limit_shared_mem",), "count",
               "Block limit: shared memory", "block 上限：shared memory",
               "Blocks per SM the shared memory allows. Fewer pipeline stages (num_stages) or smaller tiles raise it.",
               "shared memory 允许每个 SM 驻留的 block 数。减少流水级数（num_stages）或减小 tile 可提高它。",
               "kernels.cuda-threads.occupancy"),
    MetricInfo("limit_warps", ("launch__occupancy_limit_warps",), "count",
               "Block limit: block size (warps)", "block 上限：block 大小（warp 数）",
               "Blocks per SM the warp slots allow for this block size.",
               "按当前 block 大小，warp 槽位允许每个 SM 驻留的 block 数。",
               "kernels.cuda-threads.occupancy"),
    MetricInfo("limit_blocks", ("launch__occupancy_limit_blocks",), "count",
               "Block limit: blocks per SM", "block 上限：每 SM block 数",
               "The hardware cap on resident blocks per SM; it binds when blocks are tiny (few warps each).",
               "硬件对每个 SM 驻留 block 数的上限；block 很小（warp 很少）时它起作用。",
               "kernels.cuda-threads.occupancy"),
    MetricInfo("registers_per_thread", ("launch__registers_per_thread",), "count",
               "Registers per thread", "每线程寄存器数",
               "Registers the compiler gave each thread; many registers cap occupancy, too few cause spills.",
               "编译器分配给每个线程的寄存器数；太多会压低占用率，太少会溢出到 local memory。",
               "kernels.cuda-threads.occupancy"),
    MetricInfo("block_size", ("launch__block_size",), "count", "Block size (threads)", "block 大小（线程数）",
               "Threads per block (Triton: num_warps x 32).", "每个 block 的线程数（Triton 中为 num_warps × 32）。",
               "kernels.cuda-threads"),
    MetricInfo("grid_size", ("launch__grid_size",), "count", "Grid size (blocks)", "grid 大小（block 数）",
               "Blocks launched. Fewer than a few per SM leaves SMs idle (the grid does not fill the GPU).",
               "启动的 block 数。每个 SM 分不到几个 block 时会有 SM 空闲（grid 填不满 GPU）。",
               "kernels.cuda-threads"),
    MetricInfo("shared_mem_static_bytes", ("launch__shared_mem_per_block_static",), "bytes",
               "Shared memory per block (static)", "每 block shared memory（静态）",
               "Shared memory declared in the kernel.", "kernel 中静态声明的 shared memory。", "kernels.cuda-threads"),
    MetricInfo("shared_mem_dynamic_bytes", ("launch__shared_mem_per_block_dynamic",), "bytes",
               "Shared memory per block (dynamic)", "每 block shared memory（动态）",
               "Shared memory given at launch (Triton's tiles and pipeline stages live here).",
               "启动时指定的 shared memory（Triton 的 tile 和流水级缓冲在这里）。", "kernels.cuda-threads"),
    MetricInfo("ld_sectors", ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",), "count",
               "Global load sectors", "全局加载 sector 数",
               "32-byte sectors fetched for global loads.", "全局加载取回的 32 字节 sector 数。",
               "gpu.memory-hierarchy.coalescing"),
    MetricInfo("ld_requests", ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",), "count",
               "Global load requests", "全局加载请求数",
               "Warp-level global load instructions sent to L1.", "发往 L1 的 warp 级全局加载指令数。",
               "gpu.memory-hierarchy.coalescing"),
    MetricInfo("sector_use_pct", ("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",), "pct",
               "Bytes used per load sector", "每个加载 sector 的有效字节",
               "Of each 32-byte sector fetched for a load, the share the threads asked for. 100 % is coalesced; a "
               "strided or scattered pattern fetches whole sectors to use a few bytes of each.",
               "每个为加载取回的 32 字节 sector 中，线程真正需要的比例。100% 即合并访问；跨步或离散访问取回整个 sector 却只用其中几个字节。",
               "gpu.memory-hierarchy.coalescing"),
)

METRIC_BY_KEY = {m.key: m for m in METRICS}

# Derived from two metrics: sectors per load request.
SECTORS_PER_REQUEST = MetricInfo(
    "sectors_per_request", (), "ratio", "Sectors per load request", "每次加载请求的 sector 数",
    "Sectors a warp's load needs: 32 threads x 4 bytes coalesced is 4 (2 for 16-bit, 16 for 16-byte vector loads). "
    "Far above what the element size needs means the warp's addresses are spread out (strided, uncoalesced).",
    "一个 warp 的加载需要的 sector 数：32 线程 × 4 字节合并访问为 4（16 位为 2，16 字节向量加载为 16）。远高于元素大小所需即地址分散（跨步、未合并）。",
    "gpu.memory-hierarchy.coalescing")

# Warp stalls: the WarpStateStats section's per-issue ratios, or PC sampling counts.
_STALL_RATIO = re.compile(r"^smsp__average_warps_issue_stalled_(?P<reason>[a-z_]+?)_per_issue_active\.ratio$")
_STALL_PCSAMP = re.compile(r"^smsp__pcsamp_warps_issue_stalled_(?P<reason>[a-z_]+?)(?:\.sum)?$")
STALL_NODE = "gpu.sm-architecture.latency-hiding"
STALLS: dict[str, tuple[str, str, str, str]] = {
    # reason: (label en, label zh, what moves it en, zh)
    "long_scoreboard": ("waiting on global/local memory", "等待全局/本地内存",
                        "loads from DRAM/L2 in flight: more bytes in flight per warp (vector loads, more warps, "
                        "software pipelining) or fewer bytes",
                        "DRAM/L2 加载尚未返回：让每个 warp 同时在途更多字节（向量化加载、更多 warp、软件流水）或减少字节"),
    "short_scoreboard": ("waiting on shared memory / special math", "等待 shared memory / 特殊函数",
                         "shared-memory round trips or MUFU (exp, rsqrt): fewer bank conflicts, fewer shared loads",
                         "shared memory 往返或 MUFU（exp、rsqrt）：减少 bank 冲突和 shared 加载"),
    "barrier": ("waiting at __syncthreads", "等待 __syncthreads",
                "warps of a block waiting for the slowest one: balance the work, fewer barriers",
                "block 内 warp 等最慢的那个：平衡工作量、减少屏障"),
    "mio_throttle": ("memory-input/output queue full", "MIO 队列已满",
                     "too many shared-memory or special instructions at once", "同时发出的 shared memory 或特殊指令过多"),
    "lg_throttle": ("local/global queue full", "local/global 队列已满",
                    "many small global accesses: use wider (vector) loads", "大量零碎的全局访问：改用更宽的（向量）加载"),
    "math_pipe_throttle": ("math pipe busy", "计算流水线繁忙",
                           "the kernel issues more math than the pipe takes: a compute bound", "发出的计算超过流水线吞吐：计算 bound"),
    "wait": ("fixed-latency dependency", "固定延迟依赖",
             "back-to-back dependent instructions: more independent work per thread (ILP)",
             "背靠背的依赖指令：每个线程安排更多独立工作（ILP）"),
    "not_selected": ("ready but another warp was picked", "已就绪但调度了别的 warp",
                     "plenty of ready warps: not a problem by itself", "就绪 warp 充足：本身不是问题"),
    "selected": ("issuing", "正在发射", "the warp issued an instruction", "warp 正在发射指令"),
    "no_instruction": ("instruction cache miss / no instruction", "指令缓存未命中",
                       "large unrolled code or branches to cold code", "展开过度的大段代码或跳到冷代码"),
    "branch_resolving": ("resolving a branch", "等待分支判定", "divergent or data-dependent branches", "分化或数据相关的分支"),
    "dispatch_stall": ("dispatch stall", "分派停顿", "pipeline conflicts at dispatch", "分派阶段的流水线冲突"),
    "drain": ("draining memory at exit", "退出时排空写回", "stores still in flight at the end", "结束时仍有写回在途"),
    "membar": ("memory barrier", "内存屏障", "fences or atomics' ordering", "fence 或原子操作的顺序约束"),
    "imc_miss": ("constant cache miss", "常量缓存未命中", "first touch of kernel arguments/constants", "首次访问内核参数/常量"),
    "tex_throttle": ("texture queue full", "纹理队列已满", "too many texture/L1TEX operations", "纹理/L1TEX 操作过多"),
    "sleeping": ("sleeping", "休眠", "nanosleep or warp-level waits", "nanosleep 或 warp 级等待"),
    "misc": ("miscellaneous", "其他", "rare hardware reasons", "少见的硬件原因"),
}

VERDICTS = ("memory-bound", "compute-bound", "latency-bound")


# ----- availability ---------------------------------------------------------------------------
@dataclass
class Unavailable:
    """Why a profile cannot be taken, and what to do; `kind`: no_ncu | no_gpu | no_permission | failed."""

    kind: str
    reason: str
    todo: str

    def message(self) -> str:
        return f"{self.reason}. {self.todo}"


PERMISSION_MARK = "ERR_NVGPUCTRPERM"


def find_ncu(env: dict[str, str] | None = None) -> str | None:
    """The ncu executable: $STUDIO_NCU, then PATH, then the usual CUDA install places."""
    env = os.environ if env is None else env
    given = env.get(NCU_ENV)
    if given:
        return given if Path(given).is_file() and os.access(given, os.X_OK) else None
    found = shutil.which("ncu", path=env.get("PATH"))
    if found:
        return found
    return next((c for c in NCU_CANDIDATES if Path(c).is_file() and os.access(c, os.X_OK)), None)


def gpu_present() -> bool:
    """An NVIDIA GPU the driver exposes (its device node); no CUDA library is loaded."""
    return Path("/dev/nvidiactl").exists() or any(Path("/dev").glob("nvidia[0-9]*"))


def unavailable_reason(env: dict[str, str] | None = None, gpu: bool | None = None) -> Unavailable | None:
    """None when a profile can be attempted; else why not (checked without starting anything)."""
    env = os.environ if env is None else env
    if env.get(NCU_ENV) and find_ncu(env) is None:
        return Unavailable("no_ncu", f"{NCU_ENV} names {env[NCU_ENV]}, which is not an executable file",
                           f"Point {NCU_ENV} at Nsight Compute's ncu, or unset it to look on PATH")
    if find_ncu(env) is None:
        return Unavailable("no_ncu", "Nsight Compute (ncu) was not found on PATH or in /usr/local/cuda/bin",
                           "Install the CUDA toolkit or Nsight Compute, put ncu on PATH (or set STUDIO_NCU to it)")
    if not (gpu_present() if gpu is None else gpu):
        return Unavailable("no_gpu", "No NVIDIA GPU is visible on this machine",
                           "Profiling reads the GPU's hardware counters: run it on a machine with an NVIDIA GPU")
    return None


def permission_problem(text: str) -> Unavailable | None:
    """ncu's output says the counters are closed to this user (ERR_NVGPUCTRPERM)."""
    if PERMISSION_MARK not in (text or ""):
        return None
    return Unavailable("no_permission", "This user may not read the GPU's performance counters (ERR_NVGPUCTRPERM)",
                       "Run as root, or let every user read them: the nvidia module option "
                       "NVreg_RestrictProfilingToAdminUsers=0, then reboot "
                       "(https://developer.nvidia.com/ERR_NVGPUCTRPERM)")


def ncu_errors(text: str) -> list[str]:
    """ncu's own ==ERROR== lines, in order."""
    return [line.strip()[len("==ERROR=="):].strip() for line in (text or "").splitlines()
            if line.strip().startswith("==ERROR==")]


# ----- commands ---------------------------------------------------------------------------------
def metric_names() -> list[str]:
    return [name for m in METRICS for name in m.names]


def profile_command(ncu: str, report: Path, target: list[str], *, sections: bool = True,
                    metrics: bool = True) -> list[str]:
    """ncu collecting our sections and metrics for the kernels between cudaProfilerStart and
    cudaProfilerStop of `target`, into `report` (.ncu-rep). Clocks are left as they run
    (--clock-control none), caches flushed before each kernel (ncu's default)."""
    cmd = [ncu, "--clock-control", "none", "--target-processes", "all", "--profile-from-start", "off",
           "--export", str(report), "--force-overwrite"]
    if sections:
        for name in SECTIONS:
            cmd += ["--section", name]
    if metrics:
        cmd += ["--metrics", ",".join(metric_names())]
    return cmd + list(target)


def import_command(ncu: str, report: Path, page: str = "raw") -> list[str]:
    """Print a saved report as CSV, every value in base units (bytes, nanoseconds)."""
    return [ncu, "--import", str(report), "--csv", "--page", page, "--print-units", "base"]


# ----- parsing ----------------------------------------------------------------------------------
_UNIT_SCALE = {
    # bytes
    "byte": 1.0, "bytes": 1.0, "kbyte": 1e3, "mbyte": 1e6, "gbyte": 1e9, "tbyte": 1e12,
    "kibyte": 1024.0, "mibyte": 1024.0 ** 2, "gibyte": 1024.0 ** 3,
    # time, to nanoseconds
    "nsecond": 1.0, "ns": 1.0, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6, "second": 1e9, "s": 1e9,
}
_TIME_UNITS = {"nsecond", "ns", "usecond", "us", "msecond", "ms", "second", "s"}
_FIXED = {"ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Kernel Time", "Context", "Stream",
          "Block Size", "Grid Size", "Device", "CC", "Section Name", "Metric Name", "Metric Unit", "Metric Value",
          "Rule Name", "Rule Type", "Rule Description", "Estimated Speedup Type", "Estimated Speedup"}


class CsvError(ValueError):
    """ncu's output holds no CSV table (what ncu said instead is in the message)."""


def number(text: Any) -> float | None:
    """'1,234.5' -> 1234.5; 'n/a', '' and anything else not a finite number -> None."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text) if math.isfinite(text) else None
    if not isinstance(text, str):
        return None
    cleaned = text.strip().replace(",", "").replace("%", "")
    if not cleaned:
        return None
    try:
        value = float(cleaned)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def to_base(value: float | None, unit: str) -> float | None:
    """A value in the unit ncu printed, in bytes / nanoseconds (other units as they are)."""
    if value is None:
        return None
    scale = _UNIT_SCALE.get((unit or "").strip().lower())
    return value * scale if scale is not None else value


@dataclass
class KernelRecord:
    """One profiled kernel launch: its name, launch shape and every metric ncu gave."""

    id: int
    name: str
    block: str = ""
    grid: str = ""
    device: str = ""
    cc: str = ""
    metrics: dict[str, float] = field(default_factory=dict)   # ncu name -> value in base units
    units: dict[str, str] = field(default_factory=dict)

    def get(self, key: str) -> float | None:
        """One of METRICS by our key (first of its ncu names that is present)."""
        if key == "sectors_per_request":
            sectors, requests = self.get("ld_sectors"), self.get("ld_requests")
            return sectors / requests if sectors is not None and requests else None
        info = METRIC_BY_KEY[key]
        return next((self.metrics[n] for n in info.names if n in self.metrics), None)

    def stalls(self) -> list[tuple[str, float]]:
        """Warp-stall reasons, largest first, as (reason, share of all stalls in %)."""
        found: dict[str, float] = {}
        for pattern in (_STALL_RATIO, _STALL_PCSAMP):
            for name, value in self.metrics.items():
                m = pattern.match(name)
                if m and value is not None and value >= 0 and m.group("reason") not in found:
                    found[m.group("reason")] = value
            if found:
                break       # one family only: the two are not on the same scale
        found.pop("selected", None)   # issuing is not a stall
        total = sum(found.values())
        if total <= 0:
            return []
        return sorted(((r, 100.0 * v / total) for r, v in found.items()), key=lambda kv: -kv[1])

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "KernelRecord":
        return cls(id=int(data.get("id", 0)), name=str(data.get("name", "")), block=str(data.get("block", "")),
                   grid=str(data.get("grid", "")), device=str(data.get("device", "")), cc=str(data.get("cc", "")),
                   metrics={str(k): float(v) for k, v in (data.get("metrics") or {}).items()
                            if number(v) is not None},
                   units={str(k): str(v) for k, v in (data.get("units") or {}).items()})


def _csv_rows(text: str) -> list[list[str]]:
    """The CSV table in ncu's output: from the first line that parses as a header with a
    'Kernel Name' column, keeping only lines that start with a quote (ncu quotes every field)."""
    lines = (text or "").splitlines()
    start = None
    for index, line in enumerate(lines):
        if "Kernel Name" in line and line.lstrip().startswith('"'):
            try:
                header = next(csv.reader([line]))
            except csv.Error:
                continue
            if "Kernel Name" in header:
                start = index
                break
    if start is None:
        said = ncu_errors(text)
        raise CsvError("ncu printed no CSV table" + (f": {said[0]}" if said else ""))
    body = [line for line in lines[start:] if line.lstrip().startswith('"')]
    return [row for row in csv.reader(io.StringIO("\n".join(body))) if row]


def parse_csv(text: str) -> list[KernelRecord]:
    """ncu --csv output (--page raw or --page details) as one record per kernel launch, in order."""
    rows = _csv_rows(text)
    header = rows[0]
    if "Metric Name" in header and "Metric Value" in header:
        return _parse_details(header, rows[1:])
    return _parse_raw(header, rows[1:])


def _launch(row: dict[str, str], index: int) -> KernelRecord:
    ident = number(row.get("ID"))
    return KernelRecord(id=int(ident) if ident is not None else index, name=row.get("Kernel Name", "").strip(),
                        block=row.get("Block Size", "").strip(), grid=row.get("Grid Size", "").strip(),
                        device=row.get("Device", "").strip(), cc=row.get("CC", "").strip())


_UNIT_IN_NAME = re.compile(r"^(?P<name>\S+) \[(?P<unit>[^\]]*)\]$")


def _parse_raw(header: list[str], rows: list[list[str]]) -> list[KernelRecord]:
    units: dict[str, str] = {}
    for i, name in enumerate(header):   # "metric [unit]" headers, as some exports write them
        m = _UNIT_IN_NAME.match(name)
        if m and name not in _FIXED:
            header[i] = m.group("name")
            units[header[i]] = m.group("unit")
    if rows and not (rows[0][0] if rows[0] else "").strip():   # the units row under the header
        units.update({name: (rows[0][i] if i < len(rows[0]) else "") for i, name in enumerate(header)})
        rows = rows[1:]
    records = []
    for index, values in enumerate(rows):
        row = {name: (values[i] if i < len(values) else "") for i, name in enumerate(header)}
        if not row.get("Kernel Name", "").strip():
            continue
        record = _launch(row, index)
        for name in header:
            if name in _FIXED:
                continue
            value = to_base(number(row.get(name)), units.get(name, ""))
            if value is not None:
                record.metrics[name] = value
                record.units[name] = _base_unit(units.get(name, ""))
        records.append(record)
    return records


def _parse_details(header: list[str], rows: list[list[str]]) -> list[KernelRecord]:
    by_id: dict[str, KernelRecord] = {}
    for index, values in enumerate(rows):
        row = {name: (values[i] if i < len(values) else "") for i, name in enumerate(header)}
        name = row.get("Metric Name", "").strip()
        if not row.get("Kernel Name", "").strip():
            continue
        key = row.get("ID", "").strip() or str(index)
        record = by_id.get(key)
        if record is None:
            record = by_id[key] = _launch(row, len(by_id))
        if not name:
            continue
        unit = row.get("Metric Unit", "")
        value = to_base(number(row.get("Metric Value")), unit)
        if value is not None:
            record.metrics[name] = value
            record.units[name] = _base_unit(unit)
    return list(by_id.values())


def _base_unit(unit: str) -> str:
    u = (unit or "").strip().lower()
    if u in _TIME_UNITS:
        return "nsecond"
    if u in _UNIT_SCALE:
        return "byte"
    return unit or ""


# ----- the verdict ----------------------------------------------------------------------------
@dataclass
class Verdict:
    bound: str                          # memory-bound | compute-bound | latency-bound | unknown
    headline: str                       # one English line
    reasons: list[str] = field(default_factory=list)     # English, each one sentence
    warnings: list[str] = field(default_factory=list)    # extra traffic, uncoalesced loads
    limiter: str | None = None          # registers | shared_mem | warps | blocks
    top_stalls: list[tuple[str, float]] = field(default_factory=list)


_LIMITS = (("registers", "limit_registers"), ("shared_mem", "limit_shared_mem"), ("warps", "limit_warps"),
           ("blocks", "limit_blocks"))
LIMITER_WORDS = {"registers": ("registers per thread", "每线程寄存器"),
                 "shared_mem": ("shared memory per block", "每 block shared memory"),
                 "warps": ("block size", "block 大小"), "blocks": ("blocks per SM", "每 SM block 数")}


def occupancy_limiter(record: KernelRecord) -> str | None:
    """The resource allowing the fewest blocks per SM (ties: registers first)."""
    values = [(record.get(key), name) for name, key in _LIMITS]
    present = [(v, name) for v, name in values if v is not None]
    return min(present, key=lambda vn: vn[0])[1] if present else None


def verdict(record: KernelRecord, model_bytes: float | None = None, elem_bytes: int | None = None) -> Verdict:
    """Place one kernel: memory-bound, compute-bound or latency-bound, and why.

    `model_bytes`: the drill's bytes model for what this kernel should move (None: no
    traffic check). `elem_bytes`: the element size, for the sectors-per-request check.
    """
    dram = record.get("dram_pct")
    memory = record.get("memory_pct")
    mem = max((v for v in (dram, memory) if v is not None), default=None)
    sm = record.get("sm_pct")
    reasons: list[str] = []
    if mem is None and sm is None:
        out = Verdict("unknown", "no throughput metrics were collected for this kernel")
    elif (mem or 0.0) >= NEAR_PEAK_PCT and (mem or 0.0) >= (sm or 0.0):
        which = "DRAM" if dram is not None and dram >= (memory or 0.0) - 1e-9 else "on-chip memory (L1/L2)"
        out = Verdict("memory-bound", f"memory-bound: {which} at {mem:.0f}% of peak; only fewer bytes make it faster")
    elif (sm or 0.0) >= NEAR_PEAK_PCT:
        out = Verdict("compute-bound", f"compute-bound: SM pipelines at {sm:.0f}% of peak; fewer or cheaper "
                                       f"instructions make it faster")
    else:
        out = Verdict("latency-bound", f"latency-bound: neither memory ({_pct(mem)}) nor compute ({_pct(sm)}) "
                                       f"is near its peak; the warps wait")
        achieved, theoretical = record.get("occupancy_achieved_pct"), record.get("occupancy_theoretical_pct")
        limiter = occupancy_limiter(record)
        out.limiter = limiter
        if theoretical is not None and theoretical < 50.0 and limiter:
            reasons.append(f"theoretical occupancy is {theoretical:.0f}%, capped by {LIMITER_WORDS[limiter][0]}")
        if achieved is not None and theoretical is not None and achieved < 0.7 * theoretical:
            reasons.append(f"achieved occupancy {achieved:.0f}% is well below the theoretical {theoretical:.0f}% "
                           f"(uneven blocks or a grid too small for the GPU)")
        duration = record.get("duration_ns")
        if duration is not None and duration < TINY_KERNEL_NS:
            reasons.append(f"the kernel runs {duration / 1e3:.1f} µs: launch and ramp-up dominate at this size")
    out.top_stalls = record.stalls()[:3]
    if out.bound == "latency-bound" and out.top_stalls:
        reason, share = out.top_stalls[0]
        words = STALLS.get(reason, (reason.replace("_", " "),))[0]
        reasons.append(f"the top warp stall is {words} ({share:.0f}% of stalls)")
    out.reasons = reasons + out.reasons
    out.warnings = traffic_warnings(record, model_bytes, elem_bytes)
    return out


def traffic_warnings(record: KernelRecord, model_bytes: float | None, elem_bytes: int | None = None) -> list[str]:
    warnings = []
    read, written = record.get("dram_read_bytes"), record.get("dram_write_bytes")
    if model_bytes and read is not None and written is not None:
        ratio = (read + written) / model_bytes
        if ratio >= EXTRA_TRAFFIC_RATIO:
            warnings.append(f"DRAM traffic is {ratio:.2f}x the bytes model ({_bytes(read + written)} against "
                            f"{_bytes(model_bytes)}): something is read or written more than once")
        elif ratio <= SHORT_TRAFFIC_RATIO:
            warnings.append(f"DRAM traffic is {ratio:.2f}x the bytes model: part of the data was served by L2, "
                            f"or the model counts bytes this kernel does not move")
    use = record.get("sector_use_pct")
    if use is not None and use < LOW_SECTOR_USE_PCT:
        warnings.append(f"loads use {use:.0f}% of each 32-byte sector they fetch: the access is strided or "
                        f"scattered (uncoalesced)")
    spr = record.get("sectors_per_request")
    if spr is not None and spr > MAX_COALESCED_SECTORS * 1.25 and (use is None or use < 75.0):
        scalar = f"{elem_bytes} for {elem_bytes}-byte elements, " if elem_bytes else ""
        warnings.append(f"{spr:.1f} sectors per load request, where a coalesced warp needs {scalar}at most "
                        f"{MAX_COALESCED_SECTORS} even with 16-byte vector loads: the warp's addresses are "
                        f"spread out")
    return warnings


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0f}%"


def _bytes(value: float) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if value >= scale:
            return f"{value / scale:.2f} {unit}"
    return f"{value:.0f} B"


# ----- a side's kernels, and a whole profile ----------------------------------------------
def side_summary(records: Iterable[KernelRecord]) -> dict[str, float | None]:
    """Totals over one side's kernels: time and DRAM bytes summed."""
    records = list(records)

    def total(key: str) -> float | None:
        values = [r.get(key) for r in records]
        present = [v for v in values if v is not None]
        return sum(present) if present else None

    return {"kernels": float(len(records)), "duration_ns": total("duration_ns"),
            "dram_read_bytes": total("dram_read_bytes"), "dram_write_bytes": total("dram_write_bytes")}


def main_kernel(records: list[KernelRecord]) -> KernelRecord | None:
    """The longest kernel of a side: the one its verdict speaks for."""
    if not records:
        return None
    return max(records, key=lambda r: r.get("duration_ns") or 0.0)


def compare(before: dict, after: dict) -> list[dict]:
    """Two stored profiles (Profile.to_dict) of the same point, solution side: per metric of
    the main kernel, the value before, after and the change (after / before)."""
    rows = []
    old = main_kernel([KernelRecord.from_dict(k) for k in (before.get("solution") or {}).get("kernels") or []])
    new = main_kernel([KernelRecord.from_dict(k) for k in (after.get("solution") or {}).get("kernels") or []])
    if old is None or new is None:
        return rows
    for info in METRICS + (SECTORS_PER_REQUEST,):
        a, b = old.get(info.key), new.get(info.key)
        if a is None and b is None:
            continue
        rows.append({"key": info.key, "before": a, "after": b,
                     "ratio": (b / a) if a not in (None, 0) and b is not None else None})
    return rows


__all__ = [
    "CsvError", "KernelRecord", "METRICS", "METRIC_BY_KEY", "MetricInfo", "SECTORS_PER_REQUEST", "STALLS",
    "Unavailable", "Verdict", "compare", "find_ncu", "import_command", "main_kernel", "number", "parse_csv",
    "permission_problem", "profile_command", "side_summary", "unavailable_reason", "verdict",
]
