<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>QuickOpen</name>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="60" />
        <source>Quick open</source>
        <translation>快速打开</translation>
    </message>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="63" />
        <source>Search nodes, notes, cards and drills…</source>
        <translation>搜索节点、笔记、卡片和练习题…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="73" />
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="73" />
        <source>Note</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="73" />
        <source>Card</source>
        <translation>卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="74" />
        <source>Drill</source>
        <translation>练习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="74" />
        <source>Pane</source>
        <translation>面板</translation>
    </message>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="75" />
        <source>easy</source>
        <translation>简单</translation>
    </message>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="75" />
        <source>medium</source>
        <translation>中等</translation>
    </message>
    <message>
        <location filename="../../studio/ui/quick_open.py" line="75" />
        <source>hard</source>
        <translation>困难</translation>
    </message>
</context>
</TS>