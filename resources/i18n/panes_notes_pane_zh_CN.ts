<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>NotesPane</name>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="90"/>
        <source>Review this node&apos;s cards</source>
        <translation>复习该节点的卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="92"/>
        <source>Open in editor</source>
        <translation>用编辑器打开</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="94"/>
        <source>A+</source>
        <translation>A+</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="95"/>
        <source>Larger text (Ctrl++)</source>
        <translation>放大文字（Ctrl++）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="97"/>
        <source>A−</source>
        <translation>A−</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="98"/>
        <source>Smaller text (Ctrl+-)</source>
        <translation>缩小文字（Ctrl+-）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="109"/>
        <source>Find in note (Enter: next, Shift+Enter: previous)</source>
        <translation>在笔记中查找（回车：下一个，Shift+回车：上一个）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="128"/>
        <source>Linked from</source>
        <translation>反向链接</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="147"/>
        <source>Outline</source>
        <translation>大纲</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="164"/>
        <source>Select a roadmap node on the left to read its note.</source>
        <translation>在左侧路线图中选择一个节点来阅读它的笔记。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="174"/>
        <location filename="../../studio/ui/panes/notes_pane.py" line="295"/>
        <source>Copy code</source>
        <translation>复制代码</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="211"/>
        <source>There is no roadmap node “%1”.</source>
        <translation>路线图中没有节点“%1”。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="213"/>
        <source>This node has no note yet.</source>
        <translation>这个节点还没有笔记。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="215"/>
        <source>This note cannot be shown: %1 (%2)</source>
        <translation>无法显示此笔记：%1（%2）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="225"/>
        <source>Created: %1</source>
        <translation>创建：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="227"/>
        <source>Updated: %1</source>
        <translation>更新：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="229"/>
        <source>Categories: %1</source>
        <translation>分类：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="231"/>
        <source>Tags: %1</source>
        <translation>标签：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="362"/>
        <source>Not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="389"/>
        <source>Code block copied</source>
        <translation>代码块已复制</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/notes_pane.py" line="420"/>
        <source>No note named “%1” was found.</source>
        <translation>没有找到名为“%1”的笔记。</translation>
    </message>
</context>
</TS>
