<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>CardBrowser</name>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="93" />
        <source>Browse cards</source>
        <translation>浏览卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="96" />
        <source>Search: words, tag:NAME, node:ID, is:due, is:new, is:suspended, prop:r&lt;0.8</source>
        <translation>搜索：关键词、tag:标签、node:节点、is:due、is:new、is:suspended、prop:r&lt;0.8</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="125" />
        <source>New card</source>
        <translation>新建卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="126" />
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="127" />
        <source>Suspend</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="128" />
        <source>Unsuspend</source>
        <translation>取消暂停</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="129" />
        <source>Retag…</source>
        <translation>修改标签…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="130" />
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="131" />
        <source>Review these</source>
        <translation>复习这些</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="157" />
        <source>%1 cards</source>
        <translation>%1 张卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="159" />
        <source>first %1 cards shown; narrow the search</source>
        <translation>仅显示前 %1 张卡片，请缩小搜索范围</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="187" />
        <location filename="../../studio/ui/card_browser.py" line="202" />
        <location filename="../../studio/ui/card_browser.py" line="219" />
        <source>Select cards first.</source>
        <translation>请先选择卡片。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="205" />
        <source>Retag</source>
        <translation>修改标签</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="206" />
        <source>Tags to add; prefix with - to remove (e.g. triton -old):</source>
        <translation>要添加的标签；前缀 - 表示删除（例如 triton -old）：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="222" />
        <source>Delete cards</source>
        <translation>删除卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="223" />
        <source>Delete %1 cards and their review history?</source>
        <translation>删除 %1 张卡片及其复习记录？</translation>
    </message>
</context>
<context>
    <name>CardTableModel</name>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="43" />
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="43" />
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="43" />
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="43" />
        <source>Due</source>
        <translation>到期</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="44" />
        <source>Interval (d)</source>
        <translation>间隔（天）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="44" />
        <source>Stability</source>
        <translation>稳定性</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="44" />
        <source>Difficulty</source>
        <translation>难度</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="45" />
        <source>Retrievability</source>
        <translation>可提取性</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="45" />
        <source>Lapses</source>
        <translation>遗忘次数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="45" />
        <source>Reviews</source>
        <translation>复习次数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/card_browser.py" line="79" />
        <source>new</source>
        <translation>新卡</translation>
    </message>
</context>
</TS>