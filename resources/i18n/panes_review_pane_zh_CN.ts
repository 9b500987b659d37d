<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>ReviewPane</name>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="81" />
        <source>Show answer (Space)</source>
        <translation>显示答案（空格）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="83" />
        <source>Again</source>
        <translation>重来</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="83" />
        <source>Hard</source>
        <translation>困难</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="83" />
        <source>Good</source>
        <translation>良好</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="83" />
        <source>Easy</source>
        <translation>简单</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="94" />
        <source>Undo (Ctrl+Z)</source>
        <translation>撤销（Ctrl+Z）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="96" />
        <source>Review all due</source>
        <translation>复习全部到期卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="99" />
        <source>Review a tag or search, e.g. tag:triton or node:kernels</source>
        <translation>复习某个标签或搜索结果，例如 tag:triton 或 node:kernels</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="108" />
        <source>Browse cards</source>
        <translation>浏览卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="110" />
        <source>Mock interview</source>
        <translation>模拟面试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="112" />
        <source>Review settings</source>
        <translation>复习设置</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="114" />
        <source>New card</source>
        <translation>新建卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="119" />
        <source>Edit (E)</source>
        <translation>编辑（E）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="121" />
        <source>Suspend (@)</source>
        <translation>暂停（@）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="123" />
        <source>Bury (-)</source>
        <translation>搁置（-）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="126" />
        <source>Flag</source>
        <translation>旗标</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="129" />
        <source>No flag</source>
        <translation>无旗标</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="129" />
        <source>Red</source>
        <translation>红色</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="129" />
        <source>Orange</source>
        <translation>橙色</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="129" />
        <source>Green</source>
        <translation>绿色</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="129" />
        <source>Blue</source>
        <translation>蓝色</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="187" />
        <source>Session: roadmap node (%1 nodes)</source>
        <translation>本轮：路线图节点（%1 个节点）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="189" />
        <source>Session: tag %1</source>
        <translation>本轮：标签 %1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="191" />
        <source>Session: search %1</source>
        <translation>本次复习：搜索 %1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="193" />
        <source>Session: %1 selected cards</source>
        <translation>本轮：选中的 %1 张卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="195" />
        <source>Session: all due cards</source>
        <translation>本轮：全部到期卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="222" />
        <source>This session cannot start: %1</source>
        <translation>无法开始本次复习：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="228" />
        <source>New %1 · Learning %2 · Review %3</source>
        <translation>新卡 %1 · 学习中 %2 · 复习 %3</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="233" />
        <source>Congratulations! Nothing is due in this session.</source>
        <translation>恭喜！本轮没有需要复习的卡片了。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="234" />
        <source>Study ahead from Today (Ctrl+0), review a tag or search above, or add cards with New card.</source>
        <translation>可以在“今天”（Ctrl+0）中提前学习，在上方按标签或搜索复习，或用“新建卡片”添加卡片。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="247" />
        <source>imported</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="248" />
        <source>interview</source>
        <translation>面试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/review_pane.py" line="261" />
        <source>Asked in: %1</source>
        <translation>面试中被问到：%1</translation>
    </message>
</context>
</TS>