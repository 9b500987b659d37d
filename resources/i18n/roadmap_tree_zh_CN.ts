<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>RoadmapTree</name>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="38" />
        <source>Filter roadmap…</source>
        <translation>筛选路线图…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="42" />
        <source>Roadmap</source>
        <translation>路线图</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="42" />
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="42" />
        <source>Due</source>
        <translation>到期</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="72" />
        <source>The roadmap could not be loaded:</source>
        <translation>无法加载路线图：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="109" />
        <source>Overall progress: %1% (%2 of %3 nodes)</source>
        <translation>总进度：%1%（%3 个节点中完成 %2 个）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="139" />
        <source>Pending</source>
        <translation>待学</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="139" />
        <source>Learning</source>
        <translation>学习中</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="140" />
        <source>Done</source>
        <translation>已掌握</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="140" />
        <source>Skipped</source>
        <translation>跳过</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="145" />
        <source>Review this node's cards</source>
        <translation>复习这个节点的卡片</translation>
    </message>
</context>
</TS>