<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>TodayPane</name>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="117" />
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="122" />
        <source>Due now</source>
        <translation>现在到期</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="130" />
        <source>Start review (R)</source>
        <translation>开始复习 (R)</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="133" />
        <source>Study ahead</source>
        <translation>提前学习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="145" />
        <source>Streak</source>
        <translation>连续学习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="157" />
        <source>Upcoming interviews</source>
        <translation>即将到来的面试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="158" />
        <source>Suggested drill</source>
        <translation>推荐练习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="159" />
        <source>Roadmap in progress</source>
        <translation>正在学习的路线图节点</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="160" />
        <source>Last attempts and benches</source>
        <translation>最近的练习与基准测试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="216" />
        <source>Today's plan could not be loaded: %1</source>
        <translation>无法载入今天的计划：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="234" />
        <source>New %1 · Learning %2 · Review %3</source>
        <translation>新卡 %1 · 学习中 %2 · 复习 %3</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="238" />
        <source>About %1 min at %2 s a card</source>
        <translation>约 %1 分钟（每张卡 %2 秒）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="241" />
        <source>No cards due — next in %1. Study ahead?</source>
        <translation>没有到期的卡片 — 下一张在 %1 后到期。要提前学习吗？</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="244" />
        <source>No cards due. Add cards from a note (Notes) or import a deck (File → Import Anki deck…).</source>
        <translation>没有到期的卡片。可以从笔记制卡（笔记），或导入卡组（文件 → 导入 Anki 卡组…）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="250" />
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="252" />
        <source>Review one card today to start a streak.</source>
        <translation>今天复习一张卡片，开始连续学习。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="254" />
        <source>%1 reviews in the last 12 weeks</source>
        <translation>最近 12 周复习 %1 次</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="263" />
        <source>%1 d %2 h</source>
        <translation>%1 天 %2 小时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="265" />
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="266" />
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="271" />
        <source>No interviews in the next 30 days — log one in Interviews (Ctrl+N there).</source>
        <translation>未来 30 天没有面试 — 在“面试”中记录一场（在那里按 Ctrl+N）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="275" />
        <source>Open Interviews</source>
        <translation>打开面试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="279" />
        <source>follow-up</source>
        <translation>后续跟进</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="281" />
        <source>%1, in %2</source>
        <translation>%1，还有 %2</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="286" />
        <source>Prepare (P): %1 cards</source>
        <translation>准备 (P)：%1 张卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="286" />
        <source>Prepare: %1 cards</source>
        <translation>准备：%1 张卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="290" />
        <source>A review session of the cards from what %1 asked before, cards tagged with it, and your weakest topics</source>
        <translation>复习 %1 以前问过的题目所对应的卡片、带有该公司标签的卡片，以及你最薄弱的主题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="299" />
        <source>No drills are available. Open a problem set from File → Open problem set…</source>
        <translation>没有可用的练习。从 文件 → 打开题集… 打开一个题集</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="303" />
        <source>Your last attempt failed: try it again.</source>
        <translation>上次尝试未通过：再试一次。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="304" />
        <source>You have not tried this one yet.</source>
        <translation>你还没有做过这道题。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="305" />
        <source>Your best time to pass is the slowest against its limit.</source>
        <translation>相对时限，你在这道题上的最佳通过用时最慢。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="310" />
        <source>Time limit %1 min</source>
        <translation>时限 %1 分钟</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="312" />
        <source>best time to pass %1 min</source>
        <translation>最佳通过用时 %1 分钟</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="316" />
        <source>Open drill (D)</source>
        <translation>打开练习 (D)</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="328" />
        <source>No topic is marked in progress. In Notes, right-click a roadmap node and mark it “learning”.</source>
        <translation>还没有标记为学习中的主题。在“笔记”中右键点击路线图节点，标记为“学习中”。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="333" />
        <source>Open Notes</source>
        <translation>打开笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="341" />
        <source>No drill attempts or bench runs yet. Run a drill's tests with Ctrl+Enter.</source>
        <translation>还没有练习记录或基准测试。在练习中按 Ctrl+Enter 运行测试。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/today_pane.py" line="354" />
        <source>bench %1:%2 · %3 · %4</source>
        <translation>基准测试 %1:%2 · %3 · %4</translation>
    </message>
</context>
</TS>