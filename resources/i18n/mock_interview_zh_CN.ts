<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>MockInterviewDialog</name>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="51"/>
        <source>Mock interview</source>
        <translation>模拟面试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="76"/>
        <source>Start mock interview</source>
        <translation>开始模拟面试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="82"/>
        <source>Questions</source>
        <translation>题目数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="83"/>
        <source>Minutes per question</source>
        <translation>每题分钟数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="85"/>
        <source>Topics (none checked: all topics)</source>
        <translation>主题（不勾选即全部主题）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="90"/>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="105"/>
        <source>Answer aloud, or type notes here (Ctrl+Enter reveals)</source>
        <translation>口头作答，或在此记笔记（Ctrl+Enter 显示答案）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="106"/>
        <source>Reveal answer (Space)</source>
        <translation>显示答案（空格）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="110"/>
        <location filename="../../studio/ui/mock_interview.py" line="278"/>
        <source>Again</source>
        <translation>重来</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="110"/>
        <location filename="../../studio/ui/mock_interview.py" line="278"/>
        <source>Hard</source>
        <translation>困难</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="110"/>
        <location filename="../../studio/ui/mock_interview.py" line="278"/>
        <source>Good</source>
        <translation>良好</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="110"/>
        <location filename="../../studio/ui/mock_interview.py" line="278"/>
        <source>Easy</source>
        <translation>简单</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="115"/>
        <source>End now</source>
        <translation>立即结束</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="129"/>
        <source>New mock interview</source>
        <translation>新的模拟面试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="131"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="158"/>
        <source>No mock interviews yet.</source>
        <translation>还没有模拟面试。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="167"/>
        <source>When (UTC)</source>
        <translation>时间（UTC）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="167"/>
        <source>Answered</source>
        <translation>已答</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="167"/>
        <source>Average grade</source>
        <translation>平均评分</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="167"/>
        <source>Average time</source>
        <translation>平均用时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="168"/>
        <location filename="../../studio/ui/mock_interview.py" line="293"/>
        <source>Weakest topics</source>
        <translation>最薄弱的主题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="203"/>
        <source>Question %1 of %2</source>
        <translation>第 %1 题，共 %2 题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="232"/>
        <source>Over time %1</source>
        <translation>超时 %1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="285"/>
        <source>Answered %1 of %2; average grade %3; average time %4 s</source>
        <translation>已答 %1/%2 题；平均评分 %3；平均用时 %4 秒</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="288"/>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="288"/>
        <source>Grade</source>
        <translation>评分</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="288"/>
        <source>Time</source>
        <translation>用时</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="288"/>
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/mock_interview.py" line="291"/>
        <source>Mock interview summary</source>
        <translation>模拟面试总结</translation>
    </message>
</context>
</TS>
