<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../studio/ui/main_window.py" line="70" />
        <source>ML Infra Studio</source>
        <translation>ML Infra Studio</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="77" />
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="77" />
        <source>Review</source>
        <translation>复习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="77" />
        <source>Interviews</source>
        <translation>面试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="78" />
        <source>Drills</source>
        <translation>算子练习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="78" />
        <source>Stats</source>
        <translation>统计</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="144" />
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="111" />
        <source>Drill device: checking…</source>
        <translation>练习设备：检测中…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="147" />
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="148" />
        <source>Add notes folder…</source>
        <translation>添加笔记文件夹…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="149" />
        <source>Import notes…</source>
        <translation>导入笔记…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="150" />
        <source>Import Anki deck…</source>
        <translation>导入 Anki 牌组…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="151" />
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="152" />
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="153" />
        <location filename="../../studio/ui/main_window.py" line="159" />
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="158" />
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="159" />
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="159" />
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="164" />
        <source>&amp;Go</source>
        <translation>跳转(&amp;G)</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="165" />
        <source>Quick open…</source>
        <translation>快速打开…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="227" />
        <source>Due today: %1</source>
        <translation>今日到期：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="234" />
        <source>Next: %1 %2 %3 (%4 this week)</source>
        <translation>下一场：%1 %2 %3（本周共 %4 项）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="241" />
        <source>Drill device: %1</source>
        <translation>练习设备：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="241" />
        <source>CPU interpreter</source>
        <translation>CPU 解释器</translation>
    </message>
</context>
</TS>