<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>StatsPane</name>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="35"/>
        <source>Cards</source>
        <translation>卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="35"/>
        <source>Due today</source>
        <translation>今日到期</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="35"/>
        <source>Reviews</source>
        <translation>复习次数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="36"/>
        <source>Streak (days)</source>
        <translation>连续天数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="36"/>
        <source>True retention, young</source>
        <translation>真实保留率（新近）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="37"/>
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="37"/>
        <source>True retention, mature</source>
        <translation>真实保留率（成熟）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="38"/>
        <source>Interviews</source>
        <translation>面试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="38"/>
        <source>Drill attempts</source>
        <translation>练习次数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="46"/>
        <source>Reviews in the last year</source>
        <translation>过去一年的复习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="47"/>
        <source>Reviews per day (last 30 days)</source>
        <translation>每日复习量（最近 30 天）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="48"/>
        <source>Due forecast (next 30 days)</source>
        <translation>到期预测（未来 30 天）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="49"/>
        <source>Answer buttons, 30 days (learning | review)</source>
        <translation>评分按钮，30 天（学习 | 复习）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="50"/>
        <source>Mastery by area (recall above 90%)</source>
        <translation>各领域掌握度（记忆率高于 90%）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="127"/>
        <source>Mon</source>
        <translation>周一</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="127"/>
        <source>Wed</source>
        <translation>周三</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="127"/>
        <source>Fri</source>
        <translation>周五</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="143"/>
        <source>Again</source>
        <translation>重来</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="143"/>
        <source>Hard</source>
        <translation>困难</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="143"/>
        <source>Good</source>
        <translation>良好</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/stats_pane.py" line="143"/>
        <source>Easy</source>
        <translation>简单</translation>
    </message>
</context>
</TS>
