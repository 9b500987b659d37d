<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ReviewPane</name>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="79"/>
        <source>Show answer (Space)</source>
        <translation>显示答案（空格）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="81"/>
        <source>Again</source>
        <translation>重来</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="81"/>
        <source>Hard</source>
        <translation>困难</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="81"/>
        <source>Good</source>
        <translation>良好</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="81"/>
        <source>Easy</source>
        <translation>简单</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="90"/>
        <source>Undo (Ctrl+Z)</source>
        <translation>撤销（Ctrl+Z）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="92"/>
        <source>Review all due</source>
        <translation>复习全部到期卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="95"/>
        <source>Review a tag or search, e.g. tag:triton or node:kernels</source>
        <translation>复习某个标签或搜索结果，例如 tag:triton 或 node:kernels</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="104"/>
        <source>Browse cards</source>
        <translation>浏览卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="106"/>
        <source>Mock interview</source>
        <translation>模拟面试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="108"/>
        <source>Review settings</source>
        <translation>复习设置</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="110"/>
        <source>New card</source>
        <translation>新建卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="115"/>
        <source>Edit (E)</source>
        <translation>编辑（E）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="117"/>
        <source>Suspend (@)</source>
        <translation>暂停（@）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="119"/>
        <source>Bury (-)</source>
        <translation>搁置（-）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="122"/>
        <source>Flag</source>
        <translation>旗标</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="125"/>
        <source>No flag</source>
        <translation>无旗标</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="125"/>
        <source>Red</source>
        <translation>红色</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="125"/>
        <source>Orange</source>
        <translation>橙色</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="125"/>
        <source>Green</source>
        <translation>绿色</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="125"/>
        <source>Blue</source>
        <translation>蓝色</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="159"/>
        <source>Session: roadmap node (%1 nodes)</source>
        <translation>本轮：路线图节点（%1 个节点）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="161"/>
        <source>Session: tag %1</source>
        <translation>本轮：标签 %1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="163"/>
        <source>Session: search %1</source>
        <translation>本次复习：搜索 %1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="165"/>
        <source>Session: %1 selected cards</source>
        <translation>本轮：选中的 %1 张卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="167"/>
        <source>Session: all due cards</source>
        <translation>本轮：全部到期卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="194"/>
        <source>This session cannot start: %1</source>
        <translation>无法开始本次复习：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="200"/>
        <source>New %1 · Learning %2 · Review %3</source>
        <translation>新卡 %1 · 学习中 %2 · 复习 %3</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="205"/>
        <source>Congratulations! Nothing is due in this session.</source>
        <translation>恭喜！本轮没有需要复习的卡片了。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="225"/>
        <source>Asked in: %1</source>
        <translation>面试中被问到：%1</translation>
    </message>
</context>
</TS>
