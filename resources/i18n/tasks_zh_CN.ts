<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Tasks</name>
    <message>
        <location filename="../../studio/ui/tasks.py" line="30"/>
        <source>The disk is full: nothing from this action was saved, and what was there before is kept. Free some space and try again.</source>
        <translation>磁盘已满：这次操作没有保存任何内容，原有数据保持不变。请释放一些空间后重试。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/tasks.py" line="32"/>
        <source>The database cannot be written (read-only, or no permission): nothing from this action was saved. You can keep reading.</source>
        <translation>数据库无法写入（只读或没有权限）：这次操作没有保存任何内容。你仍可以继续浏览。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/tasks.py" line="34"/>
        <source>The disk reported an error while saving: nothing from this action was saved. If it happens again, use File → Database → Check database.</source>
        <translation>保存时磁盘报告了错误：这次操作没有保存任何内容。如果再次出现，请使用“文件 → 数据库 → 检查数据库”。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/tasks.py" line="36"/>
        <source>The database reported damage. Restart the app to check it and restore a backup or salvage it.</source>
        <translation>数据库报告了损坏。请重启应用进行检查，然后恢复备份或抢救数据。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/tasks.py" line="38"/>
        <source>The database is busy (another program is writing to it); try again in a moment.</source>
        <translation>数据库正忙（另一个程序正在写入），请稍后再试。</translation>
    </message>
</context>
</TS>
