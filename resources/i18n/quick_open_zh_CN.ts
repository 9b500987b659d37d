<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QuickOpen</name>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="55"/>
        <source>Quick open</source>
        <translation>快速打开</translation>
    </message>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="58"/>
        <source>Search nodes, notes, cards and drills…</source>
        <translation>搜索节点、笔记、卡片和练习题…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="68"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="68"/>
        <source>Note</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="68"/>
        <source>Card</source>
        <translation>卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="69"/>
        <source>Drill</source>
        <translation>练习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="69"/>
        <source>Pane</source>
        <translation>面板</translation>
    </message>
</context>
</TS>
