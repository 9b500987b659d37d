<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>StudioApp</name>
    <message>
        <location filename="../../studio/ui/application.py" line="46"/>
        <source>The database is locked by another program (is ML Infra Studio already running?).</source>
        <translation>数据库被另一个程序锁定（ML Infra Studio 是否已经在运行？）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="47"/>
        <source>The database file is damaged or is not a database.</source>
        <translation>数据库文件已损坏，或者不是数据库文件。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="48"/>
        <source>The database file is missing or empty, but a collection existed here.</source>
        <translation>数据库文件不见了或为空，但这里原本有一个收藏库。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="49"/>
        <source>The database or its folder cannot be written (read-only or no permission).</source>
        <translation>数据库或其所在文件夹无法写入（只读或没有权限）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="50"/>
        <source>The database was written by a newer version of ML Infra Studio.</source>
        <translation>该数据库由更新版本的 ML Infra Studio 写入。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="51"/>
        <source>The database cannot be opened.</source>
        <translation>无法打开数据库。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="55"/>
        <location filename="../../studio/ui/application.py" line="68"/>
        <location filename="../../studio/ui/application.py" line="111"/>
        <location filename="../../studio/ui/application.py" line="139"/>
        <source>ML Infra Studio</source>
        <translation>ML Infra Studio</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="71"/>
        <source>Nothing has been written to it. Your file:</source>
        <translation>没有向它写入任何内容。你的文件：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="75"/>
        <source>Restore the backup of %1 (%2 cards, %3 reviews)</source>
        <translation>恢复 %1 的备份（%2 张卡片，%3 次复习）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="80"/>
        <source>There is no verified backup to restore.</source>
        <translation>没有可恢复的、已校验的备份。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="82"/>
        <source>Salvage what can be read</source>
        <translation>抢救所有可读的数据</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="83"/>
        <location filename="../../studio/ui/application.py" line="87"/>
        <source>Open read-only</source>
        <translation>以只读方式打开</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="85"/>
        <source>Start a new, empty collection</source>
        <translation>新建一个空的收藏库</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="89"/>
        <source>Open a fresh database</source>
        <translation>打开一个新的数据库</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="90"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="100"/>
        <source>The backup of %1 is restored.</source>
        <translation>已恢复 %1 的备份。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="101"/>
        <source>The previous file is kept as:</source>
        <translation>原来的文件保留为：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="105"/>
        <source>Salvage finished: %1 rows copied, %2 problems. The damaged file is kept beside it.</source>
        <translation>抢救完成：复制了 %1 行，%2 处问题。损坏的文件保留在旁边。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="111"/>
        <source>Start a new, empty collection? Your backups are kept and can still be restored from the File menu.</source>
        <translation>要新建一个空的收藏库吗？你的备份会保留，之后仍可从“文件”菜单恢复。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="188"/>
        <source>Today&apos;s backup failed its integrity check, so the database itself may be damaged. Your earlier backups are kept. Use File → Database → Check database, or restart the app to be offered a restore.</source>
        <translation>今天的备份没有通过完整性检查，数据库本身可能已损坏。之前的备份都已保留。请使用“文件 → 数据库 → 检查数据库”，或重启应用以选择恢复。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="191"/>
        <source>Today&apos;s backup could not be made:</source>
        <translation>今天的备份未能完成：</translation>
    </message>
</context>
</TS>
