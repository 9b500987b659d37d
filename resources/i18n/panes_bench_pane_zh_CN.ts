<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>BenchPane</name>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="167" />
        <source>Open a Python file that holds your kernel…</source>
        <translation>打开包含你的算子的 Python 文件…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="168" />
        <source>Open kernel…</source>
        <translation>打开算子…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="174" />
        <source>Write spec…</source>
        <translation>编写规格…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="177" />
        <source>engine (L2 flushed, interleaved)</source>
        <translation>engine（清空 L2，交替计时）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="178" />
        <source>triton do_bench</source>
        <translation>triton do_bench</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="178" />
        <source>CUDA graph replay</source>
        <translation>CUDA Graph 重放</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="180" />
        <source>+ torch.compile</source>
        <translation>+ torch.compile</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="181" />
        <source>Also time torch.compile of the spec's reference as a baseline</source>
        <translation>同时把规格中参考实现的 torch.compile 版本作为基线计时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="182" />
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="184" />
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="187" />
        <source>Save as drill…</source>
        <translation>另存为练习…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="188" />
        <source>Make this kernel and its spec a personal drill, listed under My drills</source>
        <translation>把这个算子和它的规格保存为个人练习，显示在“我的练习”下</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="193" />
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="199" />
        <source>Timing</source>
        <translation>计时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="212" />
        <source>Timings plot here as they land (on a GPU; without one, each size is checked for correctness only).</source>
        <translation>计时结果会随测出逐点画在这里（需要 GPU；没有 GPU 时只校验每个尺寸的正确性）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="215" />
        <source>Size</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="215" />
        <source>Dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="215" />
        <source>Check</source>
        <translation>校验</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="215" />
        <source>Max err</source>
        <translation>最大误差</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="216" />
        <source>µs</source>
        <translation>µs</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="216" />
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="216" />
        <source>% peak</source>
        <translation>峰值占比</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="217" />
        <source>vs run</source>
        <translation>对比运行</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="231" />
        <source>Overlay</source>
        <translation>叠加显示</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="233" />
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="237" />
        <source>Earlier runs</source>
        <translation>历史运行</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="241" />
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="241" />
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="242" />
        <source>Copy Markdown table</source>
        <translation>复制 Markdown 表格</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="261" />
        <source>Bench your own kernel: open the Python file that holds it, pick the function, and write a bench spec (sizes, dtypes, inputs and the reference) from the form. Every size is checked against the reference, then timed beside torch and torch.compile on the GPU; each run is kept so you can compare today's change with yesterday's.</source>
        <translation>测试你自己的算子：打开包含它的 Python 文件，选择函数，再用表单编写测试规格（尺寸、数据类型、输入和参考实现）。每个尺寸都会先与参考实现比对正确性，然后在 GPU 上与 torch 和 torch.compile 一起计时；每次运行都会保存，方便你把今天的改动和昨天的结果对比。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="283" />
        <source>Open kernel</source>
        <translation>打开算子</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="284" />
        <source>Kernels (*.py *.cu)</source>
        <translation>内核文件 (*.py *.cu)</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="295" />
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="304" />
        <source>No top-level function found in this file (a syntax error?).</source>
        <translation>这个文件里没有找到顶层函数（是否有语法错误？）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="318" />
        <source>%1 (not written yet)</source>
        <translation>%1（尚未编写）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="319" />
        <source>Spec: %1</source>
        <translation>规格：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="334" />
        <source>Write spec</source>
        <translation>编写规格</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="334" />
        <source>%1 exists. Replace it?</source>
        <translation>%1 已存在，要替换吗？</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="339" />
        <location filename="../../studio/ui/panes/bench_pane.py" line="572" />
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="359" />
        <source>Not saved as a drill: %1</source>
        <translation>未能保存为练习：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="361" />
        <source>Saved as the drill “%1”, under My drills in the Drills pane.</source>
        <translation>已保存为练习“%1”，见算子练习面板中的“我的练习”。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="384" />
        <source>Timing protocol: %1</source>
        <translation>计时协议：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="386" />
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="432" />
        <source>ok</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="432" />
        <source>FAILED</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="451" />
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="459" />
        <source>%1: %2 of %3 sizes correct in %4 s</source>
        <translation>%1：%3 个尺寸中 %2 个正确，用时 %4 秒</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="467" />
        <source>first failure, %1 %2: %3</source>
        <translation>第一个失败：%1 %2：%3</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="486" />
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="486" />
        <source>failed</source>
        <translation>未通过</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="486" />
        <source>timed out</source>
        <translation>超时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="487" />
        <source>crashed</source>
        <translation>崩溃</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="487" />
        <source>CUDA error</source>
        <translation>CUDA 错误</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="488" />
        <source>over the memory limit</source>
        <translation>超出内存限制</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="488" />
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="489" />
        <source>bad spec</source>
        <translation>规格有误</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="489" />
        <source>function not found</source>
        <translation>找不到函数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="490" />
        <source>syntax error</source>
        <translation>语法错误</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="490" />
        <source>import error</source>
        <translation>导入错误</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="539" />
        <source>Run the bench, then pick an earlier run to compare with.</source>
        <translation>先运行测试，再选择一次历史运行来对比。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="543" />
        <source>faster</source>
        <translation>更快</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="543" />
        <source>slower</source>
        <translation>更慢</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="543" />
        <source>within noise</source>
        <translation>在噪声范围内</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="544" />
        <source>vs #%1</source>
        <translation>对比 #%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="549" />
        <source>No point was timed in both runs.</source>
        <translation>两次运行没有共同计时的数据点。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="553" />
        <source>Export plot</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="560" />
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="567" />
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="584" />
        <source>Markdown table copied</source>
        <translation>已复制 Markdown 表格</translation>
    </message>
</context>
<context>
    <name>SaveDrillDialog</name>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="125" />
        <source>Save as a drill</source>
        <translation>另存为练习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="131" />
        <source>easy</source>
        <translation>简单</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="131" />
        <source>medium</source>
        <translation>中等</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="131" />
        <source>hard</source>
        <translation>困难</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="135" />
        <source>What the kernel must do, as you would state it in an interview.</source>
        <translation>这个算子要做什么，按面试中出题的方式描述。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="137" />
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="138" />
        <source>Time limit (min)</source>
        <translation>时限（分钟）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="139" />
        <source>Difficulty</source>
        <translation>难度</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="140" />
        <source>Statement</source>
        <translation>题目描述</translation>
    </message>
</context>
<context>
    <name>SpecDialog</name>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="62" />
        <source>Write a bench spec</source>
        <translation>编写测试规格</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="74" />
        <source>also time torch.compile of the reference</source>
        <translation>同时计时参考实现的 torch.compile 版本</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="79" />
        <source>Sizes</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="80" />
        <source>Dtypes</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="81" />
        <source>Tensor inputs</source>
        <translation>张量输入个数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="83" />
        <source>Shape of %1</source>
        <translation>%1 的形状</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/bench_pane.py" line="84" />
        <source>Reference (of a, b, c, d)</source>
        <translation>参考实现（用 a、b、c、d 表示）</translation>
    </message>
</context>
</TS>