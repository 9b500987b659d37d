<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>RoadmapTree</name>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="69"/>
        <source>Indexing notes… %v of %m</source>
        <translation>正在索引笔记… %v / %m</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="76"/>
        <source>Filter roadmap…</source>
        <translation>筛选路线图…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="80"/>
        <source>Roadmap</source>
        <translation>路线图</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="80"/>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="80"/>
        <source>Due</source>
        <translation>到期</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="115"/>
        <source>The roadmap could not be loaded:</source>
        <translation>无法加载路线图：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="160"/>
        <source>Overall progress: %1% (%2 of %3 nodes)</source>
        <translation>总进度：%1%（%3 个节点中完成 %2 个）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="168"/>
        <source>Add notes folder</source>
        <translation>添加笔记文件夹</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="201"/>
        <source>Skipped %1 note files that are not readable text, e.g. %2</source>
        <translation>跳过了 %1 个无法作为文本读取的笔记文件，例如 %2</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="206"/>
        <source>Could not add the notes folder: %1</source>
        <translation>无法添加笔记文件夹：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="223"/>
        <source>My notes</source>
        <translation>我的笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="229"/>
        <source>This folder is missing.</source>
        <translation>该文件夹不存在。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="274"/>
        <source>Pending</source>
        <translation>待学</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="274"/>
        <source>Learning</source>
        <translation>学习中</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="275"/>
        <source>Done</source>
        <translation>已掌握</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="275"/>
        <source>Skipped</source>
        <translation>跳过</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="280"/>
        <source>Review this node&apos;s cards</source>
        <translation>复习这个节点的卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="283"/>
        <location filename="../../studio/ui/roadmap_tree.py" line="295"/>
        <source>Expand all</source>
        <translation>全部展开</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="284"/>
        <location filename="../../studio/ui/roadmap_tree.py" line="296"/>
        <source>Collapse all</source>
        <translation>全部折叠</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="288"/>
        <source>Add notes folder…</source>
        <translation>添加笔记文件夹…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="289"/>
        <source>Re-index my notes</source>
        <translation>重新索引我的笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/roadmap_tree.py" line="292"/>
        <source>Remove this folder from the list (files are kept)</source>
        <translation>从列表中移除此文件夹（文件保留）</translation>
    </message>
</context>
</TS>
