<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>ImportDialog</name>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="76" />
        <source>Import notes</source>
        <translation>导入笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="76" />
        <source>Import Anki deck</source>
        <translation>导入 Anki 牌组</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="79" />
        <source>Markdown files or a folder</source>
        <translation>Markdown 文件或文件夹</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="80" />
        <source>An .apkg file, or a CSV/TSV exported from Anki</source>
        <translation>.apkg 文件，或从 Anki 导出的 CSV/TSV</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="81" />
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="83" />
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="92" />
        <source>Link the notes where they are</source>
        <translation>在原位置链接笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="93" />
        <source>Copy the notes into the app's data folder</source>
        <translation>把笔记复制到应用数据文件夹</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="100" />
        <source>Notes:</source>
        <translation>笔记：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="118" />
        <source>Keep review history (scheduled with FSRS)</source>
        <translation>保留复习记录（用 FSRS 排程）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="119" />
        <source>Import every card as new</source>
        <translation>全部作为新卡片导入</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="126" />
        <source>History:</source>
        <translation>复习记录：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="137" />
        <source>Found</source>
        <translation>找到的内容</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="137" />
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="140" />
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="153" />
        <source>Choose what to import, then Preview.</source>
        <translation>选择要导入的内容，然后点“预览”。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="155" />
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="158" />
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="174" />
        <source>Choose a notes folder</source>
        <translation>选择笔记文件夹</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="176" />
        <source>Choose an Anki deck</source>
        <translation>选择 Anki 牌组</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="177" />
        <source>Anki decks (*.apkg *.csv *.tsv *.txt)</source>
        <translation>Anki 牌组 (*.apkg *.csv *.tsv *.txt)</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="198" />
        <source>Choose a file or folder first.</source>
        <translation>请先选择文件或文件夹。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="204" />
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="225" />
        <source>Cards (%1)</source>
        <translation>卡片（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="245" />
        <source>The encoding of some files is a guess: check their sample lines under Encodings, then Import.</source>
        <translation>部分文件的编码是推测的：请先在“编码”下核对示例行，再导入。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="268" />
        <source>Notes (%1)</source>
        <translation>笔记（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="271" />
        <source>Interviews (%1)</source>
        <translation>面试记录（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="248" />
        <source>Untick anything you do not want, then Import.</source>
        <translation>取消勾选不需要的内容，然后点“导入”。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="101" />
        <source>Use one year for all of them:</source>
        <translation>全部使用同一年份：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="103" />
        <source>Otherwise each file's dates are placed near its front matter date, else its modification time, else at their most recent past occurrence; the preview says which.</source>
        <translation>否则按每个文件的 front matter 日期推定年份，没有则按文件修改时间，再没有则取最近一次已过去的该日期；预览中会注明依据。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="116" />
        <source>Dates without a year:</source>
        <translation>没有年份的日期：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="128" />
        <source>Keep both</source>
        <translation>都保留</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="129" />
        <source>Keep the newest (an imported text replaces the collection's; its scheduling is kept)</source>
        <translation>保留最新的（导入的内容替换卡片库中的内容，原有复习进度保留）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="131" />
        <source>Skip the later ones, and those already in the collection</source>
        <translation>跳过后出现的，以及卡片库中已有的</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="132" />
        <source>Same question twice:</source>
        <translation>重复的问题：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="243" />
        <source>Nothing to import; see the problems below.</source>
        <translation>没有可导入的内容；请查看下方的问题。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="288" />
        <source>Encodings (%1)</source>
        <translation>编码（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="302" />
        <source>Same question twice (%1)</source>
        <translation>重复的问题（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="306" />
        <source>, card #%1 in your collection</source>
        <translation>，卡片库中的卡片 #%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="329" />
        <source>With this choice: all are kept.</source>
        <translation>按此选择：全部保留。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="332" />
        <source>With this choice: %1 stays (imported before); the others are not imported.</source>
        <translation>按此选择：保留 %1（之前已导入），其余的不导入。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="335" />
        <source>With this choice: not imported; card #%1 in your collection stays as it is.</source>
        <translation>按此选择：不导入；你的卡片库中的卡片 #%1 保持不变。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="338" />
        <source>With this choice: %1 is kept; the others are not imported.</source>
        <translation>按此选择：保留 %1，其余的不导入。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="343" />
        <source>With this choice: %1 replaces the text of %2's card (its scheduling is kept).</source>
        <translation>按此选择：%1 替换 %2 那张卡片的文字（保留其复习安排）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="346" />
        <source>With this choice: %1 replaces the text of card #%2 in your collection (its scheduling is kept).</source>
        <translation>按此选择：%1 替换你的卡片库中卡片 #%2 的文字（保留其复习安排）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="350" />
        <source>With this choice: the newest, %1, is kept; the others are not imported.</source>
        <translation>按此选择：保留最新的 %1，其余的不导入。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="353" />
        <source>An earlier import left out %1; this choice decides again.</source>
        <translation>之前的一次导入略过了 %1；此选择会重新决定。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="359" />
        <source>%1: not readable in the chosen encoding; choose another</source>
        <translation>%1：无法按所选编码读取，请换一种</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="362" />
        <source>detected</source>
        <translation>自动识别</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="362" />
        <source>a guess, not sure</source>
        <translation>推测，不确定</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="363" />
        <source>your choice</source>
        <translation>你的选择</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="364" />
        <source>%1: read as %2 (%3)</source>
        <translation>%1：按 %2 读取（%3）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="374" />
        <source>Sample: %1</source>
        <translation>示例：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="379" />
        <source>The encodings this file may be in, the most likely first</source>
        <translation>这个文件可能使用的编码，最可能的在前</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="410" />
        <source>%1 dates without a year: %2, the year chosen above</source>
        <translation>%1 个没有年份的日期：%2 年，即上面选择的年份</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="417" />
        <source>placed near the note's front matter date %1</source>
        <translation>依据笔记 front matter 中的日期 %1 推定</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="419" />
        <source>placed near the note's 'updated' date %1</source>
        <translation>依据笔记的更新日期（updated）%1 推定</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="421" />
        <source>placed near the file's modification time %1</source>
        <translation>依据文件修改时间 %1 推定</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="423" />
        <source>their most recent past occurrence (no front matter date and no believable file time)</source>
        <translation>取最近一次已过去的该日期（没有 front matter 日期，文件时间也不可信）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="424" />
        <source>%1 dates without a year: %2, %3</source>
        <translation>%1 个没有年份的日期：%2 年，%3</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="434" />
        <source>Problems (%1)</source>
        <translation>问题（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="475" />
        <source>Importing…</source>
        <translation>正在导入…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="495" />
        <source>Imported: %1 notes, %2 new cards, %3 updated cards, %4 interviews.</source>
        <translation>已导入：%1 篇笔记，%2 张新卡片，%3 张卡片已更新，%4 条面试记录。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="500" />
        <source>kept both</source>
        <translation>都已保留</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="500" />
        <source>kept the newest</source>
        <translation>已保留最新的</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="501" />
        <source>skipped the later ones</source>
        <translation>已跳过后出现的</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="502" />
        <source>%1 questions found twice: %2.</source>
        <translation>%1 个问题出现了不止一次：%2。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="506" />
        <source>Read as: %1.</source>
        <translation>读取所用编码：%1。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="524" />
        <source>Could not import: %1</source>
        <translation>无法导入：%1</translation>
    </message>
</context>
</TS>