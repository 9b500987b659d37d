<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CardBrowser</name>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="120"/>
        <source>Browse cards</source>
        <translation>浏览卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="123"/>
        <source>Search: words, tag:NAME, node:ID, is:due, is:new, is:suspended, prop:r&lt;0.8</source>
        <translation>搜索：关键词、tag:标签、node:节点、is:due、is:new、is:suspended、prop:r&lt;0.8</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="152"/>
        <source>New card</source>
        <translation>新建卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="153"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="154"/>
        <source>Suspend</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="155"/>
        <source>Unsuspend</source>
        <translation>取消暂停</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="156"/>
        <source>Retag…</source>
        <translation>修改标签…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="157"/>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="158"/>
        <source>Review these</source>
        <translation>复习这些</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="188"/>
        <source>%1 cards</source>
        <translation>%1 张卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="221"/>
        <location filename="../../studio/ui/card_browser.py" line="236"/>
        <location filename="../../studio/ui/card_browser.py" line="253"/>
        <source>Select cards first.</source>
        <translation>请先选择卡片。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="239"/>
        <source>Retag</source>
        <translation>修改标签</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="240"/>
        <source>Tags to add; prefix with - to remove (e.g. triton -old):</source>
        <translation>要添加的标签；前缀 - 表示删除（例如 triton -old）：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="256"/>
        <source>Delete cards</source>
        <translation>删除卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="257"/>
        <source>Delete %1 cards and their review history?</source>
        <translation>删除 %1 张卡片及其复习记录？</translation>
    </message>
</context>
<context>
    <name>CardTableModel</name>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="52"/>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="52"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="52"/>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="52"/>
        <source>Due</source>
        <translation>到期</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="53"/>
        <source>Interval (d)</source>
        <translation>间隔（天）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="53"/>
        <source>Stability</source>
        <translation>稳定性</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="53"/>
        <source>Difficulty</source>
        <translation>难度</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="54"/>
        <source>Retrievability</source>
        <translation>可提取性</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="54"/>
        <source>Lapses</source>
        <translation>遗忘次数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="54"/>
        <source>Reviews</source>
        <translation>复习次数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="106"/>
        <source>new</source>
        <translation>新卡</translation>
    </message>
</context>
</TS>
