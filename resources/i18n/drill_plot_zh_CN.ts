<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>DrillPlot</name>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="32" />
        <source>Throughput</source>
        <translation>吞吐</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="33" />
        <source>Time (µs) with p20–p80</source>
        <translation>耗时（µs，含 p20–p80）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="105" />
        <source>µs</source>
        <translation>µs</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="110" />
        <source>your kernel</source>
        <translation>你的 kernel</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="111" />
        <source>earlier attempt</source>
        <translation>之前的提交</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="132" />
        <source>measured copy bandwidth %1 GB/s</source>
        <translation>实测拷贝带宽 %1 GB/s</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_plot.py" line="135" />
        <source>Run Benchmark on a GPU to plot timings.</source>
        <translation>在 GPU 上运行性能测试后这里会画出耗时。</translation>
    </message>
</context>
</TS>