<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>DrillPlot</name>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="61" />
        <source>Throughput</source>
        <translation>吞吐</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="62" />
        <source>Time (µs) with p20–p80</source>
        <translation>耗时（µs，含 p20–p80）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="63" />
        <source>Roofline</source>
        <translation>Roofline 屋顶线</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="108" />
        <source>Profile this point (%1 %2) with Nsight Compute</source>
        <translation>用 Nsight Compute 剖析这个点（%1 %2）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="299" />
        <source>µs</source>
        <translation>µs</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="274" />
        <location filename="../../studio/ui/drill_plot.py" line="349" />
        <source>your kernel</source>
        <translation>你的 kernel</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="275" />
        <source>earlier attempt</source>
        <translation>之前的提交</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="325" />
        <source>measured copy bandwidth %1 GB/s</source>
        <translation>实测拷贝带宽 %1 GB/s</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="71" />
        <source>Run Benchmark on a GPU to plot timings.</source>
        <translation>在 GPU 上运行性能测试后这里会画出耗时。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="335" />
        <source>arithmetic intensity (FLOP/byte)</source>
        <translation>算术强度（FLOP/字节）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="338" />
        <source>The roofline needs a flops model (flops() in the bench spec) and timings.</source>
        <translation>屋顶线需要计算量模型（测试规格中的 flops()）和计时结果。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="346" />
        <source>roof: %1 GB/s, %2 TFLOP/s</source>
        <translation>屋顶：%1 GB/s，%2 TFLOP/s</translation>
    </message>
</context>
</TS>