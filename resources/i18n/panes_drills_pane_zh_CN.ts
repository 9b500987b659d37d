<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>DrillsPane</name>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="50" />
        <source>Drills could not be loaded:</source>
        <translation>无法加载练习题：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="57" />
        <source>broken: %1</source>
        <translation>无法加载：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="61" />
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/drills_pane.py" line="65" />
        <source>%1 drills</source>
        <translation>%1 道练习题</translation>
    </message>
</context>
</TS>