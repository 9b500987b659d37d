<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>InterviewForm</name>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="42"/>
        <source>Interview</source>
        <translation>面试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="49"/>
        <source>e.g. 2025-05-19 20:00 or 5/19 20:00</source>
        <translation>例如 2025-05-19 20:00 或 5/19 20:00</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="61"/>
        <source>phone</source>
        <translation>电话</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="61"/>
        <source>video</source>
        <translation>视频</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="62"/>
        <source>onsite</source>
        <translation>现场</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="62"/>
        <source>written test</source>
        <translation>笔试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="67"/>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="71"/>
        <source>scheduled</source>
        <translation>已安排</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="71"/>
        <source>waiting</source>
        <translation>等结果</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="72"/>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="72"/>
        <source>rejected</source>
        <translation>未通过</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="72"/>
        <source>offer</source>
        <translation>offer</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="73"/>
        <source>withdrawn</source>
        <translation>已放弃</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="73"/>
        <source>no response</source>
        <translation>无回复</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="78"/>
        <source>optional date, e.g. 2025-05-26 10:00</source>
        <translation>可选日期，例如 2025-05-26 10:00</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="82"/>
        <source>Free notes in Markdown</source>
        <translation>自由笔记（Markdown）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="84"/>
        <source>Date and time</source>
        <translation>日期和时间</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="84"/>
        <source>Time zone</source>
        <translation>时区</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="85"/>
        <source>Company</source>
        <translation>公司</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="85"/>
        <source>Team</source>
        <translation>团队</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="86"/>
        <source>Role</source>
        <translation>岗位</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="86"/>
        <source>Round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="87"/>
        <source>Format</source>
        <translation>形式</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="87"/>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="88"/>
        <source>Referral</source>
        <translation>内推</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="88"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="89"/>
        <source>Next step</source>
        <translation>下一步</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="89"/>
        <source>Next step date</source>
        <translation>下一步日期</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="90"/>
        <source>How it felt</source>
        <translation>感受</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="90"/>
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="104"/>
        <source>Question or task</source>
        <translation>问题或任务</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="104"/>
        <source>Roadmap node</source>
        <translation>路线图节点</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="104"/>
        <source>How it went (1-5)</source>
        <translation>表现（1-5）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="105"/>
        <source>Coding task</source>
        <translation>编程题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="105"/>
        <source>Drill</source>
        <translation>练习题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="107"/>
        <source>Add question</source>
        <translation>添加问题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="109"/>
        <source>Remove question</source>
        <translation>删除问题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="117"/>
        <source>What was asked</source>
        <translation>被问到的问题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="170"/>
        <source>Which year?</source>
        <translation>哪一年？</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="171"/>
        <source>“%1” has no year. Which year is it?</source>
        <translation>“%1”没有年份，是哪一年？</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="174"/>
        <source>The date needs a year.</source>
        <translation>日期需要年份。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="189"/>
        <source>Unknown time zone.</source>
        <translation>未知时区。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="204"/>
        <source>A question&apos;s rating must be 1 to 5.</source>
        <translation>问题评分必须是 1 到 5。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="216"/>
        <source>Date and time are required.</source>
        <translation>必须填写日期和时间。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="218"/>
        <source>Company is required.</source>
        <translation>必须填写公司。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/interview_form.py" line="219"/>
        <source>The next step cannot be before the interview.</source>
        <translation>下一步不能早于面试时间。</translation>
    </message>
</context>
</TS>
