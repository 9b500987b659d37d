<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>StatsPane</name>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="38" />
        <source>Cards</source>
        <translation>卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="38" />
        <source>Due today</source>
        <translation>今日到期</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="38" />
        <source>Reviews</source>
        <translation>复习次数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="39" />
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="39" />
        <source>Interviews</source>
        <translation>面试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="40" />
        <source>Drill attempts</source>
        <translation>练习次数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="47" />
        <source>Reviews per day (last 30 days)</source>
        <translation>每日复习量（最近 30 天）</translation>
    </message>
</context>
</TS>