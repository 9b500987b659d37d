<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ReviewSettingsDialog</name>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="34"/>
        <source>Review settings</source>
        <translation>复习设置</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="39"/>
        <source>Chinese and English</source>
        <translation>中英双语</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="39"/>
        <source>Chinese</source>
        <translation>中文</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="40"/>
        <source>English</source>
        <translation>英文</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="48"/>
        <source>New cards per day</source>
        <translation>每日新卡数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="49"/>
        <source>Reviews per day</source>
        <translation>每日复习数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="50"/>
        <source>Desired retention</source>
        <translation>目标保留率</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="51"/>
        <source>Card language</source>
        <translation>卡片语言</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="52"/>
        <source>Mock interview minutes per question</source>
        <translation>模拟面试每题分钟数</translation>
    </message>
</context>
</TS>
