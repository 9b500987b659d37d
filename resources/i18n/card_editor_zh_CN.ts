<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CardEditor</name>
    <message>
        <location filename="../../studio/ui/card_editor.py" line="36"/>
        <source>Edit card</source>
        <translation>编辑卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_editor.py" line="36"/>
        <source>New card</source>
        <translation>新建卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_editor.py" line="39"/>
        <source>Question and answer</source>
        <translation>问答</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_editor.py" line="40"/>
        <source>Cloze ({{c1::...}})</source>
        <translation>填空（{{c1::...}}）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_editor.py" line="43"/>
        <source>roadmap node id, e.g. kernels.triton-model</source>
        <translation>路线图节点 id，例如 kernels.triton-model</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_editor.py" line="45"/>
        <source>tags separated by spaces</source>
        <translation>标签，以空格分隔</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_editor.py" line="47"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_editor.py" line="48"/>
        <source>Question (English)</source>
        <translation>问题（英文）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_editor.py" line="49"/>
        <source>Answer (English)</source>
        <translation>答案（英文）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_editor.py" line="50"/>
        <source>Question (Chinese)</source>
        <translation>问题（中文）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_editor.py" line="51"/>
        <source>Answer (Chinese)</source>
        <translation>答案（中文）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_editor.py" line="52"/>
        <source>Roadmap node</source>
        <translation>路线图节点</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_editor.py" line="53"/>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_editor.py" line="89"/>
        <source>This card no longer exists.</source>
        <translation>这张卡片已不存在。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_editor.py" line="118"/>
        <source>Front</source>
        <translation>正面</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_editor.py" line="118"/>
        <source>Back</source>
        <translation>背面</translation>
    </message>
</context>
</TS>
