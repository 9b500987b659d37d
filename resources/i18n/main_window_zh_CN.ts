<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../studio/ui/main_window.py" line="106" />
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="106" />
        <source>Review</source>
        <translation>复习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="107" />
        <source>Interviews</source>
        <translation>面试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="107" />
        <source>Drills</source>
        <translation>算子练习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="108" />
        <source>Stats</source>
        <translation>统计</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="221" />
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="164" />
        <source>Drill device: checking…</source>
        <translation>练习设备：检测中…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="86" />
        <source>ML Infra Studio — interview prep for ML systems</source>
        <translation>ML Infra Studio — ML 系统面试准备</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="106" />
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="107" />
        <source>Bench</source>
        <translation>基准测试</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="208" />
        <source>Read-only: this database is damaged or cannot be written, so nothing you do is saved. Restore a backup from File → Database → Restore from backup…</source>
        <translation>只读：该数据库已损坏或无法写入，你的任何操作都不会被保存。可从“文件 → 数据库 → 从备份恢复…”恢复备份。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="216" />
        <source>The database reported damage while working. Restart the app: it checks the file and offers to restore the newest good backup or salvage what can be read. Your backups are kept.</source>
        <translation>数据库在使用中报告了损坏。请重新启动应用：它会检查文件，并提供恢复最新的完好备份或抢救可读数据的选项。你的备份都会保留。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="224" />
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="225" />
        <source>Add notes folder…</source>
        <translation>添加笔记文件夹…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="226" />
        <source>Import notes…</source>
        <translation>导入笔记…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="227" />
        <source>Import Anki deck…</source>
        <translation>导入 Anki 牌组…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="228" />
        <source>Open problem set…</source>
        <translation>打开题库…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="230" />
        <source>Database</source>
        <translation>数据库</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="231" />
        <source>Restore from backup…</source>
        <translation>从备份恢复…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="232" />
        <source>Back up now</source>
        <translation>立即备份</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="233" />
        <source>Check database</source>
        <translation>检查数据库</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="234" />
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="235" />
        <source>Roadmap tree</source>
        <translation>路线图树</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="240" />
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="241" />
        <location filename="../../studio/ui/main_window.py" line="247" />
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="246" />
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="247" />
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="247" />
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="252" />
        <source>&amp;Go</source>
        <translation>跳转(&amp;G)</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="253" />
        <source>Quick open…</source>
        <translation>快速打开…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="331" />
        <source>Open problem set</source>
        <translation>打开题库</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="354" />
        <source>Backup made and checked: %1 cards, %2 reviews</source>
        <translation>备份已完成并通过校验：%1 张卡片，%2 次复习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="360" />
        <source>Checking the database…</source>
        <translation>正在检查数据库…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="365" />
        <source>Database check: ok (%1 s)</source>
        <translation>数据库检查：正常（%1 秒）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="367" />
        <source>Database check</source>
        <translation>数据库检查</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="368" />
        <source>The database is damaged. Restore a backup (File → Database → Restore from backup…), or quit and start the app again to salvage it.</source>
        <translation>数据库已损坏。请恢复一个备份（文件 → 数据库 → 从备份恢复…），或退出后重新启动应用来抢救数据。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="381" />
        <source>Due: new %1 · learning %2 · review %3</source>
        <translation>到期：新卡 %1 · 学习中 %2 · 复习 %3</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="390" />
        <source>Next: %1 %2 %3 (%4 this week)</source>
        <translation>下一场：%1 %2 %3（本周共 %4 项）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="399" />
        <source>Drill device: %1</source>
        <translation>练习设备：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/main_window.py" line="399" />
        <source>CPU interpreter</source>
        <translation>CPU 解释器</translation>
    </message>
</context>
</TS>