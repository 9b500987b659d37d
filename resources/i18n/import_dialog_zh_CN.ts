<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>ImportDialog</name>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="63" />
        <source>Import notes</source>
        <translation>导入笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="63" />
        <source>Import Anki deck</source>
        <translation>导入 Anki 牌组</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="66" />
        <source>Markdown files or a folder</source>
        <translation>Markdown 文件或文件夹</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="67" />
        <source>An .apkg file, or a CSV/TSV exported from Anki</source>
        <translation>.apkg 文件，或从 Anki 导出的 CSV/TSV</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="68" />
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="70" />
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="79" />
        <source>Link the notes where they are</source>
        <translation>在原位置链接笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="80" />
        <source>Copy the notes into the app's data folder</source>
        <translation>把笔记复制到应用数据文件夹</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="87" />
        <source>Notes:</source>
        <translation>笔记：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="91" />
        <source>Year for dates written without one:</source>
        <translation>未写年份的日期使用年份：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="93" />
        <source>Keep review history (scheduled with FSRS)</source>
        <translation>保留复习记录（用 FSRS 排程）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="94" />
        <source>Import every card as new</source>
        <translation>全部作为新卡片导入</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="101" />
        <source>History:</source>
        <translation>复习记录：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="103" />
        <source>Found</source>
        <translation>找到的内容</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="103" />
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="106" />
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="119" />
        <source>Choose what to import, then Preview.</source>
        <translation>选择要导入的内容，然后点“预览”。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="121" />
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="124" />
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="140" />
        <source>Choose a notes folder</source>
        <translation>选择笔记文件夹</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="142" />
        <source>Choose an Anki deck</source>
        <translation>选择 Anki 牌组</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="143" />
        <source>Anki decks (*.apkg *.csv *.tsv *.txt)</source>
        <translation>Anki 牌组 (*.apkg *.csv *.tsv *.txt)</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="164" />
        <source>Choose a file or folder first.</source>
        <translation>请先选择文件或文件夹。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="170" />
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="186" />
        <source>Cards (%1)</source>
        <translation>卡片（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="200" />
        <source>Notes (%1)</source>
        <translation>笔记（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="203" />
        <source>Interviews (%1)</source>
        <translation>面试记录（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="217" />
        <source>Untick anything you do not want, then Import.</source>
        <translation>取消勾选不需要的内容，然后点“导入”。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="219" />
        <source>Nothing to import; see the problems below.</source>
        <translation>没有可导入的内容；请查看下方的问题。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="229" />
        <source>Problems (%1)</source>
        <translation>问题（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="251" />
        <source>Importing…</source>
        <translation>正在导入…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="268" />
        <source>Imported: %1 notes, %2 new cards, %3 updated cards, %4 interviews.</source>
        <translation>已导入：%1 篇笔记，%2 张新卡片，%3 张卡片已更新，%4 条面试记录。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="279" />
        <source>Could not import: %1</source>
        <translation>无法导入：%1</translation>
    </message>
</context>
</TS>