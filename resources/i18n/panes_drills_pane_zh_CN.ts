<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>DrillsPane</name>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="137" />
        <source>easy</source>
        <translation>简单</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="137" />
        <source>medium</source>
        <translation>中等</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="137" />
        <source>hard</source>
        <translation>困难</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="168" />
        <source>Run tests (Ctrl+Enter)</source>
        <translation>运行测试（Ctrl+Enter）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="170" />
        <source>Benchmark</source>
        <translation>性能测试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="172" />
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="175" />
        <location filename="../../studio/ui/panes/drills_pane.py" line="443" />
        <source>Reset to starter</source>
        <translation>恢复初始代码</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="177" />
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="179" />
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="183" />
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="186" />
        <location filename="../../studio/ui/panes/drills_pane.py" line="478" />
        <source>Start timer</source>
        <translation>开始计时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="210" />
        <source>Case</source>
        <translation>用例</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="210" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="210" />
        <source>Max error</source>
        <translation>最大误差</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="211" />
        <source>Message</source>
        <translation>信息</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="223" />
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="223" />
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="223" />
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="224" />
        <source>Best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="224" />
        <source>Time to pass</source>
        <translation>通过用时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="228" />
        <source>Open this attempt's code</source>
        <translation>打开这次提交的代码</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="230" />
        <source>Overlay on plot</source>
        <translation>叠加到图上</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="232" />
        <source>Compare two selected</source>
        <translation>对比选中的两次</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="245" />
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="246" />
        <source>Console</source>
        <translation>控制台</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="247" />
        <source>Plot</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="248" />
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="276" />
        <source>Drills could not be loaded:</source>
        <translation>无法加载练习题：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="287" />
        <source>My drills</source>
        <translation>我的练习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="294" />
        <source>broken: %1</source>
        <translation>无法加载：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="301" />
        <source> · best %1</source>
        <translation> · 最佳 %1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="304" />
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="383" />
        <source>Checking whether CUDA C++ can be built and run here…</source>
        <translation>正在检查本机能否编译和运行 CUDA C++…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="394" />
        <source>CUDA C++ on %1 (nvcc %2). The first build of new code takes a while; running the same code again loads it from the build cache.</source>
        <translation>CUDA C++ 运行于 %1（nvcc %2）。新代码第一次编译需要一些时间；同样的代码再次运行时直接从编译缓存加载。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="398" />
        <source>CUDA C++ is unavailable: %1. You can still write and save CUDA code here.</source>
        <translation>CUDA C++ 不可用：%1。你仍然可以在这里编写和保存 CUDA 代码。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="410" />
        <source>Unavailable: %1</source>
        <translation>不可用：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="444" />
        <source>Replace your code with the starter? Your draft is overwritten.</source>
        <translation>用初始代码替换你的代码？当前草稿会被覆盖。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="456" />
        <location filename="../../studio/ui/panes/drills_pane.py" line="461" />
        <source>Open solution</source>
        <translation>打开解答</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="466" />
        <source>Save solution</source>
        <translation>保存解答</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="484" />
        <source>Resume timer</source>
        <translation>继续计时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="490" />
        <source>Pause timer</source>
        <translation>暂停计时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="497" />
        <source>5 minutes left on the drill timer.</source>
        <translation>练习计时还剩 5 分钟。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="514" />
        <source>Drill device: %1</source>
        <translation>练习设备：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="517" />
        <source>CPU interpreter — timing off (no GPU found; correctness checks run under Triton's interpreter)</source>
        <translation>CPU 解释器——不计时（未找到 GPU；正确性检查在 Triton 解释器下运行）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="552" />
        <source>starting…</source>
        <translation>启动中…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="575" />
        <source>CPU interpreter — timing off (%1)</source>
        <translation>CPU 解释器——不计时（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="577" />
        <source>CUDA build loaded from the cache in %1 s</source>
        <translation>CUDA 编译结果从缓存加载，用时 %1 秒</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="578" />
        <source>CUDA build took %1 s</source>
        <translation>CUDA 编译用时 %1 秒</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="587" />
        <location filename="../../studio/ui/panes/drills_pane.py" line="685" />
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="587" />
        <source>FAILED</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="597" />
        <source>honesty check</source>
        <translation>诚信检查</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="606" />
        <source>ERROR</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="633" />
        <source>Click to jump to line %1</source>
        <translation>点击跳到第 %1 行</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="649" />
        <source>%1 in %2 s</source>
        <translation>%1，用时 %2 秒</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="652" />
        <source>[output cut: %1 bytes not shown]</source>
        <translation>[输出已截断：%1 字节未显示]</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="685" />
        <source>failed</source>
        <translation>未通过</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="691" />
        <source>Personal best: %1</source>
        <translation>个人最佳：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="692" />
        <source>personal best</source>
        <translation>个人最佳</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="725" />
        <source>Select two attempts to compare.</source>
        <translation>请选择两次提交进行对比。</translation>
    </message>
</context>
</TS>