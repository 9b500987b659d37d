<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>InterviewsPane</name>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="36" />
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="36" />
        <source>Company</source>
        <translation>公司</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="36" />
        <source>Round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="36" />
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="36" />
        <source>Questions</source>
        <translation>问题数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="43" />
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="76" />
        <source>%1 interviews logged</source>
        <translation>已记录 %1 场面试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="79" />
        <source>No interviews logged yet.</source>
        <translation>还没有面试记录。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="80" />
        <source>Log each interview right after it ends: what was asked, how it went, and the result.</source>
        <translation>每场面试结束后立刻记录：问了什么、表现如何、结果怎样。</translation>
    </message>
</context>
</TS>