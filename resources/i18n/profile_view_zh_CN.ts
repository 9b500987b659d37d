<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>ProfileDialog</name>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="169" />
        <source>Profile: %1</source>
        <translation>剖析：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="170" />
        <source>Profiling under Nsight Compute: the solution, then the torch baseline (each kernel is replayed many times; this takes a minute)…</source>
        <translation>正在用 Nsight Compute 剖析：先是你的解法，再是 torch 基线（每个 kernel 要重放多次，需要一分钟左右）…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="174" />
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="202" />
        <source>The profile failed: %1</source>
        <translation>剖析失败：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="205" />
        <source>Profiled. Hover a metric for what it means and what moves it.</source>
        <translation>剖析完成。把鼠标停在指标上，可查看它的含义以及什么会改变它。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="206" />
        <source>Profiling is unavailable here.</source>
        <translation>此处无法进行剖析。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="207" />
        <source>The profile failed.</source>
        <translation>剖析失败。</translation>
    </message>
</context>
<context>
    <name>ProfileView</name>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="28" />
        <source>Nsight Compute (ncu) is not installed or not on PATH.</source>
        <translation>未安装 Nsight Compute（ncu），或它不在 PATH 中。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="29" />
        <source>Install the CUDA toolkit or Nsight Compute and put ncu on PATH (or set STUDIO_NCU).</source>
        <translation>请安装 CUDA toolkit 或 Nsight Compute，并把 ncu 加入 PATH（或设置 STUDIO_NCU）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="31" />
        <source>No NVIDIA GPU is available to profile on.</source>
        <translation>没有可用于剖析的 NVIDIA GPU。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="32" />
        <source>Profiling reads the GPU's hardware counters: use a machine with an NVIDIA GPU.</source>
        <translation>剖析需要读取 GPU 的硬件计数器：请在有 NVIDIA GPU 的机器上进行。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="34" />
        <source>This user may not read the GPU's performance counters (ERR_NVGPUCTRPERM).</source>
        <translation>当前用户无权读取 GPU 性能计数器（ERR_NVGPUCTRPERM）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="35" />
        <source>Run as root, or set the nvidia module option NVreg_RestrictProfilingToAdminUsers=0 and reboot.</source>
        <translation>请以 root 运行，或设置 nvidia 内核模块参数 NVreg_RestrictProfilingToAdminUsers=0 后重启。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="48" />
        <source>No kernel was profiled.</source>
        <translation>没有剖析到任何 kernel。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="53" />
        <source>Memory-bound: memory at %1 of peak. Only moving fewer bytes makes it faster.</source>
        <translation>访存 bound：访存达到峰值的 %1。只有少搬字节才能更快。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="54" />
        <source>Compute-bound: SM pipelines at %2 of peak. Fewer or cheaper instructions make it faster.</source>
        <translation>计算 bound：SM 流水线达到峰值的 %2。更少或更便宜的指令才能更快。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="55" />
        <source>Latency-bound: neither memory (%1) nor compute (%2) is near its peak; the warps wait.</source>
        <translation>延迟 bound：访存（%1）和计算（%2）都远未到峰值，warp 在等待。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="56" />
        <source>No throughput metrics were collected for this kernel.</source>
        <translation>这个 kernel 没有采集到吞吐指标。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="60" />
        <source>registers per thread</source>
        <translation>每线程寄存器</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="60" />
        <source>shared memory per block</source>
        <translation>每 block shared memory</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="61" />
        <source>block size</source>
        <translation>block 大小</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="61" />
        <source>blocks per SM</source>
        <translation>每 SM block 数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="62" />
        <source>Occupancy: theoretical %1, capped by %2.</source>
        <translation>占用率：理论值 %1，受 %2 限制。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="65" />
        <source>Achieved occupancy %1 is well below the theoretical %2.</source>
        <translation>实际占用率 %1 远低于理论值 %2。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="70" />
        <source>Top warp stalls: %1</source>
        <translation>主要 warp 停顿：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="75" />
        <source>DRAM traffic is %1× the bytes model: something is read or written more than once.</source>
        <translation>DRAM 流量是字节模型的 %1 倍：有数据被读或写了不止一次。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="79" />
        <source>Loads use %1 of each 32-byte sector: the access is strided or scattered (uncoalesced).</source>
        <translation>加载只用到每个 32 字节 sector 的 %1：访问是跨步或离散的（未合并）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="92" />
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="92" />
        <location filename="../../studio/ui/profile_view.py" line="133" />
        <source>Your kernel</source>
        <translation>你的 kernel</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="92" />
        <location filename="../../studio/ui/profile_view.py" line="133" />
        <source>torch baseline</source>
        <translation>torch 基线</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="93" />
        <source>Previous profile</source>
        <translation>上一次剖析</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="105" />
        <source>%1 at %2 %3 on %4</source>
        <translation>%1，%2 %3，设备 %4</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="114" />
        <source>Note: the solution's output differs from the reference at this point.</source>
        <translation>注意：在这个点上，解法的输出与参考结果不一致。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/profile_view.py" line="126" />
        <source>Roadmap: %1</source>
        <translation>路线图：%1</translation>
    </message>
</context>
</TS>