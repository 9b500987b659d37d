<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>ReviewPane</name>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="61" />
        <source>Show answer (Space)</source>
        <translation>显示答案（空格）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="63" />
        <source>Again</source>
        <translation>重来</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="63" />
        <source>Hard</source>
        <translation>困难</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="63" />
        <source>Good</source>
        <translation>良好</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="63" />
        <source>Easy</source>
        <translation>简单</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="72" />
        <source>Undo (Ctrl+Z)</source>
        <translation>撤销（Ctrl+Z）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="74" />
        <source>Review all due</source>
        <translation>复习全部到期卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="100" />
        <source>Session: roadmap node (%1 nodes)</source>
        <translation>本轮：路线图节点（%1 个节点）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="102" />
        <source>Session: tag %1</source>
        <translation>本轮：标签 %1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="104" />
        <source>Session: %1 selected cards</source>
        <translation>本轮：选中的 %1 张卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="106" />
        <source>Session: all due cards</source>
        <translation>本轮：全部到期卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="121" />
        <source>New %1 · Learning %2 · Review %3</source>
        <translation>新卡 %1 · 学习中 %2 · 复习 %3</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="126" />
        <source>Congratulations! Nothing is due in this session.</source>
        <translation>恭喜！本轮没有需要复习的卡片了。</translation>
    </message>
</context>
</TS>