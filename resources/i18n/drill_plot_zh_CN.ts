<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>DrillPlot</name>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="135" />
        <source>Throughput</source>
        <translation>吞吐</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="136" />
        <source>Time (µs) with p20–p80</source>
        <translation>耗时（µs，含 p20–p80）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="137" />
        <source>Roofline</source>
        <translation>Roofline 屋顶线</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="183" />
        <source>Profile this point (%1 %2) with Nsight Compute</source>
        <translation>用 Nsight Compute 剖析这个点（%1 %2）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="316" />
        <source>size (%1)</source>
        <translation>尺寸（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="382" />
        <source>µs</source>
        <translation>µs</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="357" />
        <location filename="../../studio/ui/drill_plot.py" line="433" />
        <source>your kernel</source>
        <translation>你的 kernel</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="358" />
        <source>earlier attempt</source>
        <translation>之前的提交</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="408" />
        <source>measured copy bandwidth %1 GB/s</source>
        <translation>实测拷贝带宽 %1 GB/s</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="146" />
        <source>Run Benchmark on a GPU to plot timings.</source>
        <translation>在 GPU 上运行性能测试后这里会画出耗时。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="418" />
        <source>arithmetic intensity (FLOP/byte)</source>
        <translation>算术强度（FLOP/字节）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="422" />
        <source>The roofline needs a flops model (flops() in the bench spec) and timings.</source>
        <translation>屋顶线需要计算量模型（测试规格中的 flops()）和计时结果。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="430" />
        <source>roof: %1 GB/s, %2 TFLOP/s</source>
        <translation>屋顶：%1 GB/s，%2 TFLOP/s</translation>
    </message>
</context>
</TS>