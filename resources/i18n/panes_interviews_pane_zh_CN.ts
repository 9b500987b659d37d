<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>InterviewCharts</name>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="435"/>
        <source>Interviews per week</source>
        <translation>每周面试数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="436"/>
        <source>Results</source>
        <translation>结果分布</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="438"/>
        <source>Topic</source>
        <translation>考点</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="438"/>
        <source>Times asked</source>
        <translation>被问次数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="438"/>
        <source>Average self-rating</source>
        <translation>平均自评</translation>
    </message>
</context>
<context>
    <name>InterviewsPane</name>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="123"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="90"/>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="123"/>
        <source>Company</source>
        <translation>公司</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="55"/>
        <source>scheduled</source>
        <translation>已安排</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="55"/>
        <source>waiting</source>
        <translation>等结果</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="56"/>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="56"/>
        <source>rejected</source>
        <translation>未通过</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="56"/>
        <source>offer</source>
        <translation>offer</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="57"/>
        <source>withdrawn</source>
        <translation>已放弃</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="57"/>
        <source>no response</source>
        <translation>无回复</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="59"/>
        <source>Log</source>
        <translation>记录</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="61"/>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="62"/>
        <source>Self-introduction</source>
        <translation>自我介绍</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="86"/>
        <source>All results</source>
        <translation>全部结果</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="92"/>
        <source>Search questions, notes…</source>
        <translation>搜索问题、笔记…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="106"/>
        <source>from</source>
        <translation>从</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="107"/>
        <source>to</source>
        <translation>到</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="110"/>
        <source>New (Ctrl+N)</source>
        <translation>新建（Ctrl+N）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="110"/>
        <source>Edit (Enter)</source>
        <translation>编辑（Enter）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="111"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="111"/>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="112"/>
        <source>Export Markdown</source>
        <translation>导出 Markdown</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="116"/>
        <source>Undo delete</source>
        <translation>撤销删除</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="123"/>
        <source>Role</source>
        <translation>岗位</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="124"/>
        <source>Round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="124"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="124"/>
        <source>Questions</source>
        <translation>问题数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="135"/>
        <source>Make a card from this question</source>
        <translation>用这道题生成卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="137"/>
        <source>Practise the drill</source>
        <translation>去练这道算子</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="142"/>
        <source>What was asked</source>
        <translation>被问到的问题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="171"/>
        <source>next step</source>
        <translation>下一步</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="173"/>
        <source>Next 7 days:</source>
        <translation>未来 7 天：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="175"/>
        <source>Nothing scheduled in the next 7 days.</source>
        <translation>未来 7 天没有安排。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="197"/>
        <source>%1 of %2 interviews</source>
        <translation>显示 %1 / 共 %2 场面试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="200"/>
        <source>No interviews logged yet. Press Ctrl+N right after an interview: what was asked, how it went, and the result.</source>
        <translation>还没有面试记录。面试一结束就按 Ctrl+N：记下问了什么、答得怎样、结果如何。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="222"/>
        <source>Next step</source>
        <translation>下一步</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="222"/>
        <source>How it felt</source>
        <translation>感受</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="261"/>
        <source>Not saved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="267"/>
        <source>Delete interview</source>
        <translation>删除面试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="268"/>
        <source>Delete the interview with %1? You can undo this.</source>
        <translation>删除与 %1 的面试？之后可以撤销。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="294"/>
        <source>Card %1 created from the question.</source>
        <translation>已用这道题生成卡片 %1。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="306"/>
        <source>This question is not linked to a drill.</source>
        <translation>这道题没有关联练习题。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="311"/>
        <source>Export interview log</source>
        <translation>导出面试记录</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="317"/>
        <source>Exported %1 interviews to %2</source>
        <translation>已导出 %1 场面试到 %2</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="338"/>
        <source>Version name, e.g. &apos;infra team, 1 minute&apos;</source>
        <translation>版本名，例如“infra 团队，1 分钟版”</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="347"/>
        <source>Start / stop speaking timer</source>
        <translation>开始 / 停止计时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="349"/>
        <source>New version</source>
        <translation>新版本</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="351"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="383"/>
        <source>(untitled)</source>
        <translation>（未命名）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/panes/interviews_pane.py" line="412"/>
        <source>About %1 s when spoken</source>
        <translation>口述约 %1 秒</translation>
    </message>
</context>
</TS>
