<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>DrillsPane</name>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="118" />
        <source>easy</source>
        <translation>简单</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="118" />
        <source>medium</source>
        <translation>中等</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="118" />
        <source>hard</source>
        <translation>困难</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="141" />
        <source>Run tests (Ctrl+Enter)</source>
        <translation>运行测试（Ctrl+Enter）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="143" />
        <source>Benchmark</source>
        <translation>性能测试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="145" />
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="148" />
        <location filename="../../studio/ui/panes/drills_pane.py" line="355" />
        <source>Reset to starter</source>
        <translation>恢复初始代码</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="150" />
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="152" />
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="156" />
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="159" />
        <location filename="../../studio/ui/panes/drills_pane.py" line="384" />
        <source>Start timer</source>
        <translation>开始计时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="182" />
        <source>Case</source>
        <translation>用例</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="182" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="182" />
        <source>Max error</source>
        <translation>最大误差</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="183" />
        <source>Message</source>
        <translation>信息</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="195" />
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="195" />
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="195" />
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="196" />
        <source>Best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="196" />
        <source>Time to pass</source>
        <translation>通过用时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="200" />
        <source>Open this attempt's code</source>
        <translation>打开这次提交的代码</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="202" />
        <source>Overlay on plot</source>
        <translation>叠加到图上</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="204" />
        <source>Compare two selected</source>
        <translation>对比选中的两次</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="217" />
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="218" />
        <source>Console</source>
        <translation>控制台</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="219" />
        <source>Plot</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="220" />
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="248" />
        <source>Drills could not be loaded:</source>
        <translation>无法加载练习题：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="259" />
        <source>My drills</source>
        <translation>我的练习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="266" />
        <source>broken: %1</source>
        <translation>无法加载：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="273" />
        <source> · best %1</source>
        <translation> · 最佳 %1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="276" />
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="356" />
        <source>Replace your code with the starter? Your draft is overwritten.</source>
        <translation>用初始代码替换你的代码？当前草稿会被覆盖。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="363" />
        <location filename="../../studio/ui/panes/drills_pane.py" line="368" />
        <source>Open solution</source>
        <translation>打开解答</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="373" />
        <source>Save solution</source>
        <translation>保存解答</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="390" />
        <source>Resume timer</source>
        <translation>继续计时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="396" />
        <source>Pause timer</source>
        <translation>暂停计时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="403" />
        <source>5 minutes left on the drill timer.</source>
        <translation>练习计时还剩 5 分钟。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="420" />
        <source>Drill device: %1</source>
        <translation>练习设备：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="423" />
        <source>CPU interpreter — timing off (no GPU found; correctness checks run under Triton's interpreter)</source>
        <translation>CPU 解释器——不计时（未找到 GPU；正确性检查在 Triton 解释器下运行）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="450" />
        <source>starting…</source>
        <translation>启动中…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="473" />
        <source>CPU interpreter — timing off (%1)</source>
        <translation>CPU 解释器——不计时（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="481" />
        <location filename="../../studio/ui/panes/drills_pane.py" line="579" />
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="481" />
        <source>FAILED</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="491" />
        <source>honesty check</source>
        <translation>诚信检查</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="500" />
        <source>ERROR</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="527" />
        <source>Click to jump to line %1</source>
        <translation>点击跳到第 %1 行</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="543" />
        <source>%1 in %2 s</source>
        <translation>%1，用时 %2 秒</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="546" />
        <source>[output cut: %1 bytes not shown]</source>
        <translation>[输出已截断：%1 字节未显示]</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="579" />
        <source>failed</source>
        <translation>未通过</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="585" />
        <source>Personal best: %1</source>
        <translation>个人最佳：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="586" />
        <source>personal best</source>
        <translation>个人最佳</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="619" />
        <source>Select two attempts to compare.</source>
        <translation>请选择两次提交进行对比。</translation>
    </message>
</context>
</TS>