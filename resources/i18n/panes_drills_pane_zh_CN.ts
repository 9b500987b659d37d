<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>DrillsPane</name>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="152" />
        <source>easy</source>
        <translation>简单</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="152" />
        <source>medium</source>
        <translation>中等</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="152" />
        <source>hard</source>
        <translation>困难</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="188" />
        <source>Run tests (Ctrl+Enter)</source>
        <translation>运行测试（Ctrl+Enter）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="190" />
        <source>Benchmark</source>
        <translation>性能测试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="192" />
        <source>+ torch.compile</source>
        <translation>+ torch.compile</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="193" />
        <source>Benchmark also times torch.compile of the torch baseline, drawn as a second line (compiled once per shape, outside the timing)</source>
        <translation>基准测试时同时计时 torch 基线的 torch.compile 版本，画成第二条线（每个形状只编译一次，编译不计入计时）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="197" />
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="203" />
        <location filename="../../studio/ui/panes/drills_pane.py" line="539" />
        <source>Reset to starter</source>
        <translation>恢复初始代码</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="204" />
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="205" />
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="207" />
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="208" />
        <source>Reset to the starter, open a file, or save your code as a file</source>
        <translation>恢复为初始代码、打开文件，或把你的代码另存为文件</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="215" />
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="218" />
        <location filename="../../studio/ui/panes/drills_pane.py" line="574" />
        <source>Start timer</source>
        <translation>开始计时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="225" />
        <source>Ranks</source>
        <translation>进程数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="228" />
        <source>How many processes run your function through torch.distributed (gloo on the CPU; NCCL when there is a GPU per rank)</source>
        <translation>用多少个进程通过 torch.distributed 运行你的函数（CPU 上用 gloo；每个 rank 都有一块 GPU 时用 NCCL）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="250" />
        <source>Case</source>
        <translation>用例</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="250" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="250" />
        <source>Max error</source>
        <translation>最大误差</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="251" />
        <source>Message</source>
        <translation>信息</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="267" />
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="267" />
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="267" />
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="268" />
        <source>Best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="268" />
        <source>Time to pass</source>
        <translation>通过用时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="272" />
        <source>Open this attempt's code</source>
        <translation>打开这次提交的代码</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="274" />
        <source>Overlay on plot</source>
        <translation>叠加到图上</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="276" />
        <source>Compare two selected</source>
        <translation>对比选中的两次</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="289" />
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="290" />
        <source>Console</source>
        <translation>控制台</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="291" />
        <source>Plot</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="292" />
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="320" />
        <source>Drills could not be loaded:</source>
        <translation>无法加载练习题：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="333" />
        <source>My drills</source>
        <translation>我的练习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="334" />
        <source>Pack: %1</source>
        <translation>题库：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="342" />
        <source>broken: %1</source>
        <translation>无法加载：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="349" />
        <source> · best %1</source>
        <translation> · 最佳 %1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="354" />
        <source>%1 GPUs</source>
        <translation>%1 块 GPU</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="355" />
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="378" />
        <location filename="../../studio/ui/panes/drills_pane.py" line="393" />
        <source>Open problem set</source>
        <translation>打开题库</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="382" />
        <source>Added "%1": %2 drills, listed under "Pack: %1". The folder is read where it is: changes there show the next time the list is read.</source>
        <translation>已添加“%1”：%2 道练习，列在“题库：%1”下。文件夹在原处读取：那里的改动会在下次读取列表时显示。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="386" />
        <source>Added "%1" (%2): %3 problems, listed under "Pack: %1". They are checked with the problem's own tests and checker, and timed over its own benchmark inputs against its reference.</source>
        <translation>已添加“%1”（%2）：%3 道题，列在“题库：%1”下。正确性由题目自带的测试和检查函数判定，计时使用题目自带的 benchmark 输入，并与题目的参考实现对比。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="391" />
        <source>%1 could not be read: `studio-drill packs show %2` says why.</source>
        <translation>%1 道题无法读取：`studio-drill packs show %2` 会说明原因。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="482" />
        <source>Checking whether CUDA C++ can be built and run here…</source>
        <translation>正在检查本机能否编译和运行 CUDA C++…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="493" />
        <source>CUDA C++ on %1 (nvcc %2). The first build of new code takes a while; running the same code again loads it from the build cache.</source>
        <translation>CUDA C++ 运行于 %1（nvcc %2）。新代码第一次编译需要一些时间；同样的代码再次运行时直接从编译缓存加载。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="497" />
        <source>CUDA C++ is unavailable: %1. You can still write and save CUDA code here.</source>
        <translation>CUDA C++ 不可用：%1。你仍然可以在这里编写和保存 CUDA 代码。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="509" />
        <source>Unavailable: %1</source>
        <translation>不可用：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="540" />
        <source>Replace your code with the starter? Your draft is overwritten.</source>
        <translation>用初始代码替换你的代码？当前草稿会被覆盖。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="552" />
        <location filename="../../studio/ui/panes/drills_pane.py" line="557" />
        <source>Open solution</source>
        <translation>打开解答</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="562" />
        <source>Save solution</source>
        <translation>保存解答</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="580" />
        <source>Resume timer</source>
        <translation>继续计时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="586" />
        <source>Pause timer</source>
        <translation>暂停计时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="593" />
        <source>5 minutes left on the drill timer.</source>
        <translation>练习计时还剩 5 分钟。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="615" />
        <source>Drill device: %1</source>
        <translation>练习设备：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="618" />
        <source>CPU interpreter — timing off (no GPU found; correctness checks run under Triton's interpreter)</source>
        <translation>CPU 解释器——不计时（未找到 GPU；正确性检查在 Triton 解释器下运行）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="657" />
        <source>starting…</source>
        <translation>启动中…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="680" />
        <source>Parallelism drill: %1</source>
        <translation>并行练习：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="682" />
        <source>CPU interpreter — timing off (%1)</source>
        <translation>CPU 解释器——不计时（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="684" />
        <source>CUDA build loaded from the cache in %1 s</source>
        <translation>CUDA 编译结果从缓存加载，用时 %1 秒</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="685" />
        <source>CUDA build took %1 s</source>
        <translation>CUDA 编译用时 %1 秒</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="694" />
        <location filename="../../studio/ui/panes/drills_pane.py" line="700" />
        <location filename="../../studio/ui/panes/drills_pane.py" line="823" />
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="694" />
        <location filename="../../studio/ui/panes/drills_pane.py" line="700" />
        <source>FAILED</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="699" />
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="706" />
        <source>Bus bandwidth (busbw, GB/s) against the library collective</source>
        <translation>总线带宽（busbw，GB/s）与库自带的集合通信对比</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="715" />
        <source>honesty check</source>
        <translation>诚信检查</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="724" />
        <source>ERROR</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="751" />
        <source>Click to jump to line %1</source>
        <translation>点击跳到第 %1 行</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="767" />
        <source>%1 in %2 s</source>
        <translation>%1，用时 %2 秒</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="770" />
        <source>[output cut: %1 bytes not shown]</source>
        <translation>[输出已截断：%1 字节未显示]</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="823" />
        <source>failed</source>
        <translation>未通过</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="829" />
        <source>Personal best: %1</source>
        <translation>个人最佳：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="830" />
        <source>personal best</source>
        <translation>个人最佳</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="863" />
        <source>Select two attempts to compare.</source>
        <translation>请选择两次提交进行对比。</translation>
    </message>
</context>
</TS>