<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>StudioApp</name>
    <message>
        <location filename="../../studio/ui/application.py" line="44" />
        <source>The database is locked by another program (is ML Infra Studio already running?).</source>
        <translation>数据库被另一个程序锁定（ML Infra Studio 是否已经在运行？）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="45" />
        <source>The database file is damaged or is not a database.</source>
        <translation>数据库文件已损坏，或者不是数据库文件。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="46" />
        <source>The database was written by a newer version of ML Infra Studio.</source>
        <translation>该数据库由更新版本的 ML Infra Studio 写入。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="47" />
        <source>The database cannot be opened.</source>
        <translation>无法打开数据库。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="59" />
        <source>ML Infra Studio</source>
        <translation>ML Infra Studio</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="60" />
        <source>Your file is kept as it is:</source>
        <translation>你的文件保持原样，未被改动：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="61" />
        <source>Open a fresh database</source>
        <translation>打开一个新的数据库</translation>
    </message>
    <message>
        <location filename="../../studio/ui/application.py" line="62" />
        <source>Quit</source>
        <translation>退出</translation>
    </message>
</context>
</TS>