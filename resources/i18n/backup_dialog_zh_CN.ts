<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>BackupDialog</name>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="39" />
        <location filename="../../studio/ui/backup_dialog.py" line="125" />
        <source>Restore from backup</source>
        <translation>从备份恢复</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="41" />
        <source>Backups are made once a day and before every upgrade; each is checked before it counts. Restoring keeps the current file aside, so nothing is lost.</source>
        <translation>每天以及每次升级前都会做一次备份，每份备份都先经过校验才算数。恢复时会把当前文件另存一旁，不会丢失任何内容。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="45" />
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="45" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="45" />
        <source>Cards</source>
        <translation>卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="45" />
        <source>Reviews</source>
        <translation>复习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="46" />
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="46" />
        <source>Check</source>
        <translation>校验</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="54" />
        <source>Reading the backups…</source>
        <translation>正在读取备份…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="57" />
        <source>Back up now</source>
        <translation>立即备份</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="58" />
        <source>Restore selected…</source>
        <translation>恢复所选…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="76" />
        <source>daily</source>
        <translation>每日</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="76" />
        <source>manual</source>
        <translation>手动</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="77" />
        <source>before upgrade</source>
        <translation>升级前</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="83" />
        <source>damaged</source>
        <translation>已损坏</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="83" />
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="84" />
        <source>not checked</source>
        <translation>未校验</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="84" />
        <source>no collection</source>
        <translation>不含收藏库</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="93" />
        <source>Backups kept: %1 (in %2)</source>
        <translation>保留的备份：%1 份（位于 %2）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="97" />
        <source>No backups yet. One is made on the first start of each day.</source>
        <translation>还没有备份。每天第一次启动时会自动备份一次。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="102" />
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="113" />
        <source>Backing up…</source>
        <translation>正在备份…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="121" />
        <source>Restore the backup of %1 (%2 cards, %3 reviews)? The current database is kept aside in the data folder, not deleted.</source>
        <translation>要恢复 %1 的备份（%2 张卡片，%3 次复习）吗？当前数据库会另存在数据文件夹中，不会被删除。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="127" />
        <source>Restoring…</source>
        <translation>正在恢复…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="137" />
        <source>Restored the backup of %1.</source>
        <translation>已恢复 %1 的备份。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/backup_dialog.py" line="139" />
        <source>The previous file is kept as %1.</source>
        <translation>原来的文件保留为 %1。</translation>
    </message>
</context>
</TS>