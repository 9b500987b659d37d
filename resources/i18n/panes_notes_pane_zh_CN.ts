<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>NotesPane</name>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="69" />
        <source>Outline</source>
        <translation>大纲</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="78" />
        <source>Select a roadmap node on the left to read its note.</source>
        <translation>在左侧路线图中选择一个节点来阅读它的笔记。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="92" />
        <source>This node has no note yet.</source>
        <translation>这个节点还没有笔记。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="94" />
        <source>The note file is missing:</source>
        <translation>笔记文件缺失：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="100" />
        <source>Created</source>
        <translation>创建</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="102" />
        <source>Updated</source>
        <translation>更新</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="104" />
        <source>Tags</source>
        <translation>标签</translation>
    </message>
</context>
</TS>