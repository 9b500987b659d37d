<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>ImportDialog</name>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="226" />
        <source>Import notes</source>
        <translation>导入笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="233" />
        <source>Import Anki deck</source>
        <translation>导入 Anki 牌组</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="227" />
        <source>Markdown files or a folder</source>
        <translation>Markdown 文件或文件夹</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="234" />
        <source>An .apkg file, or a CSV/TSV exported from Anki</source>
        <translation>.apkg 文件，或从 Anki 导出的 CSV/TSV</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="98" />
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="100" />
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="110" />
        <source>Link the notes where they are</source>
        <translation>在原位置链接笔记</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="111" />
        <source>Copy the notes into the app's data folder</source>
        <translation>把笔记复制到应用数据文件夹</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="118" />
        <source>Notes:</source>
        <translation>笔记：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="151" />
        <source>Keep review history (scheduled with FSRS)</source>
        <translation>保留复习记录（用 FSRS 排程）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="152" />
        <source>Import every card as new</source>
        <translation>全部作为新卡片导入</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="159" />
        <source>History:</source>
        <translation>复习记录：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="172" />
        <location filename="../../studio/ui/import_dialog.py" line="240" />
        <source>Found</source>
        <translation>找到的内容</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="172" />
        <location filename="../../studio/ui/import_dialog.py" line="241" />
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="175" />
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="201" />
        <location filename="../../studio/ui/import_dialog.py" line="246" />
        <source>Choose what to import, then Preview.</source>
        <translation>选择要导入的内容，然后点“预览”。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="203" />
        <location filename="../../studio/ui/import_dialog.py" line="239" />
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="206" />
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="267" />
        <source>Choose a notes folder</source>
        <translation>选择笔记文件夹</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="275" />
        <source>Choose an Anki deck</source>
        <translation>选择 Anki 牌组</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="276" />
        <source>Anki decks (*.apkg *.csv *.tsv *.txt)</source>
        <translation>Anki 牌组 (*.apkg *.csv *.tsv *.txt)</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="302" />
        <source>Choose a file or folder first.</source>
        <translation>请先选择文件或文件夹。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="309" />
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="331" />
        <source>Cards (%1)</source>
        <translation>卡片（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="360" />
        <source>The encoding of some files is a guess: check their sample lines under Encodings, then Import.</source>
        <translation>部分文件的编码是推测的：请先在“编码”下核对示例行，再导入。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="414" />
        <source>Notes (%1)</source>
        <translation>笔记（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="417" />
        <source>Interviews (%1)</source>
        <translation>面试记录（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="363" />
        <source>Untick anything you do not want, then Import.</source>
        <translation>取消勾选不需要的内容，然后点“导入”。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="119" />
        <source>Use one year for all of them:</source>
        <translation>全部使用同一年份：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="121" />
        <source>Otherwise each file's dates are placed near its front matter date, else its modification time, else at their most recent past occurrence; the preview says which.</source>
        <translation>否则按每个文件的 front matter 日期推定年份，没有则按文件修改时间，再没有则取最近一次已过去的该日期；预览中会注明依据。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="134" />
        <source>Dates without a year:</source>
        <translation>没有年份的日期：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="136" />
        <source>Cards from a deck</source>
        <translation>牌组中的卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="137" />
        <source>Reviews done in Anki on cards exported from here</source>
        <translation>在 Anki 中对从本应用导出的卡片所做的复习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="139" />
        <source>After reviewing on the phone, export from Anki with scheduling (an .apkg with 'Include scheduling information', or a collection backup, .colpkg): those answers are added to the same cards here and their schedules recomputed. Importing a file twice adds nothing.</source>
        <translation>在手机上复习后，从 Anki 导出时包含调度信息（勾选“包含调度信息”的 .apkg，或集合备份 .colpkg）：这些作答会加到本应用中的同一批卡片上，并重新计算它们的复习安排。同一文件导入两次不会重复添加。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="150" />
        <source>What:</source>
        <translation>导入内容：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="162" />
        <source>Keep both</source>
        <translation>都保留</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="163" />
        <source>Keep the newest (an imported text replaces the collection's; its scheduling is kept)</source>
        <translation>保留最新的（导入的内容替换卡片库中的内容，原有复习进度保留）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="165" />
        <source>Skip the later ones, and those already in the collection</source>
        <translation>跳过后出现的，以及卡片库中已有的</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="166" />
        <source>Same question twice:</source>
        <translation>重复的问题：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="192" />
        <source>Read again with this limit</source>
        <translation>用此限制重新读取</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="229" />
        <source>Bring back reviews done in Anki</source>
        <translation>取回在 Anki 中完成的复习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="230" />
        <source>An .apkg (with scheduling) or .colpkg exported from Anki after reviewing</source>
        <translation>复习后从 Anki 导出的 .apkg（含调度信息）或 .colpkg</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="239" />
        <source>Bring back reviews</source>
        <translation>取回复习记录</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="240" />
        <source>Card</source>
        <translation>卡片</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="241" />
        <source>Reviews added</source>
        <translation>新增复习</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="243" />
        <source>Choose the file exported from Anki, then Bring back reviews. Nothing changes unless the whole file is read.</source>
        <translation>选择从 Anki 导出的文件，然后点“取回复习记录”。只有整个文件读取成功才会有改动。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="269" />
        <source>Choose a file exported from Anki</source>
        <translation>选择从 Anki 导出的文件</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="270" />
        <source>Anki packages (*.apkg *.colpkg)</source>
        <translation>Anki 包 (*.apkg *.colpkg)</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="348" />
        <source> (a limit: see below to read it again with a higher one)</source>
        <translation>（超出限制：可在下方提高限制后重新读取）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="355" />
        <source>Refused at a limit; nothing was imported. If you trust this file, raise the limit below and read it again.</source>
        <translation>超出限制而被拒绝，未导入任何内容。如果你信任此文件，请在下方提高限制后重新读取。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="358" />
        <source>Nothing to import; see the problems below.</source>
        <translation>没有可导入的内容；请查看下方的问题。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="370" />
        <source>The collection inside this deck expands past the limit of %1 MB.</source>
        <translation>此牌组内的集合解压后超过了 %1 MB 的限制。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="373" />
        <source>The collection inside this deck expands more than %1 times its packed size, as archive bombs do.</source>
        <translation>此牌组内的集合解压后超过其压缩大小的 %1 倍，这是压缩炸弹的特征。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="377" />
        <source>Reading this file took longer than the limit of %1 s.</source>
        <translation>读取此文件的时间超过了 %1 秒的限制。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="379" />
        <source>If you trust it, read it again with a higher limit:</source>
        <translation>如果你信任它，可提高限制后重新读取：</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="434" />
        <source>Encodings (%1)</source>
        <translation>编码（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="448" />
        <source>Same question twice (%1)</source>
        <translation>重复的问题（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="452" />
        <source>, card #%1 in your collection</source>
        <translation>，卡片库中的卡片 #%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="475" />
        <source>With this choice: all are kept.</source>
        <translation>按此选择：全部保留。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="478" />
        <source>With this choice: %1 stays (imported before); the others are not imported.</source>
        <translation>按此选择：保留 %1（之前已导入），其余的不导入。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="481" />
        <source>With this choice: not imported; card #%1 in your collection stays as it is.</source>
        <translation>按此选择：不导入；你的卡片库中的卡片 #%1 保持不变。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="484" />
        <source>With this choice: %1 is kept; the others are not imported.</source>
        <translation>按此选择：保留 %1，其余的不导入。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="489" />
        <source>With this choice: %1 replaces the text of %2's card (its scheduling is kept).</source>
        <translation>按此选择：%1 替换 %2 那张卡片的文字（保留其复习安排）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="492" />
        <source>With this choice: %1 replaces the text of card #%2 in your collection (its scheduling is kept).</source>
        <translation>按此选择：%1 替换你的卡片库中卡片 #%2 的文字（保留其复习安排）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="496" />
        <source>With this choice: the newest, %1, is kept; the others are not imported.</source>
        <translation>按此选择：保留最新的 %1，其余的不导入。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="499" />
        <source>An earlier import left out %1; this choice decides again.</source>
        <translation>之前的一次导入略过了 %1；此选择会重新决定。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="505" />
        <source>%1: not readable in the chosen encoding; choose another</source>
        <translation>%1：无法按所选编码读取，请换一种</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="508" />
        <source>detected</source>
        <translation>自动识别</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="508" />
        <source>a guess, not sure</source>
        <translation>推测，不确定</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="509" />
        <source>your choice</source>
        <translation>你的选择</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="510" />
        <source>%1: read as %2 (%3)</source>
        <translation>%1：按 %2 读取（%3）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="520" />
        <source>Sample: %1</source>
        <translation>示例：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="525" />
        <source>The encodings this file may be in, the most likely first</source>
        <translation>这个文件可能使用的编码，最可能的在前</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="556" />
        <source>%1 dates without a year: %2, the year chosen above</source>
        <translation>%1 个没有年份的日期：%2 年，即上面选择的年份</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="563" />
        <source>placed near the note's front matter date %1</source>
        <translation>依据笔记 front matter 中的日期 %1 推定</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="565" />
        <source>placed near the note's 'updated' date %1</source>
        <translation>依据笔记的更新日期（updated）%1 推定</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="567" />
        <source>placed near the file's modification time %1</source>
        <translation>依据文件修改时间 %1 推定</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="569" />
        <source>their most recent past occurrence (no front matter date and no believable file time)</source>
        <translation>取最近一次已过去的该日期（没有 front matter 日期，文件时间也不可信）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="570" />
        <source>%1 dates without a year: %2, %3</source>
        <translation>%1 个没有年份的日期：%2 年，%3</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="580" />
        <source>Problems (%1)</source>
        <translation>问题（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="624" />
        <source>Importing…</source>
        <translation>正在导入…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="644" />
        <source>Imported: %1 notes, %2 new cards, %3 updated cards, %4 interviews.</source>
        <translation>已导入：%1 篇笔记，%2 张新卡片，%3 张卡片已更新，%4 条面试记录。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="649" />
        <source>kept both</source>
        <translation>都已保留</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="649" />
        <source>kept the newest</source>
        <translation>已保留最新的</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="650" />
        <source>skipped the later ones</source>
        <translation>已跳过后出现的</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="651" />
        <source>%1 questions found twice: %2.</source>
        <translation>%1 个问题出现了不止一次：%2。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="655" />
        <source>Read as: %1.</source>
        <translation>读取所用编码：%1。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="667" />
        <source>Choose a file first.</source>
        <translation>请先选择一个文件。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="677" />
        <source>Reading the reviews…</source>
        <translation>正在读取复习记录…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="687" />
        <source>Cards that gained reviews (%1)</source>
        <translation>新增了复习的卡片（%1）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="695" />
        <source>Notes in the file that match no card here (%1): their reviews are left out</source>
        <translation>文件中与本应用任何卡片都不匹配的笔记（%1）：其复习记录未导入</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="699" />
        <source>GUID %1</source>
        <translation>GUID %1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="702" />
        <source>and %1 more</source>
        <translation>另有 %1 条</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="706" />
        <source>Reviews that came back: %1 · cards that gained reviews: %2 · already here: %3.</source>
        <translation>取回的复习：%1 · 新增复习的卡片：%2 · 已存在：%3。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="710" />
        <source>Nothing new: every review in this file was here already.</source>
        <translation>没有新内容：此文件中的每条复习记录都已存在。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="713" />
        <source>Nothing was imported and nothing changed; the problems below say why.</source>
        <translation>未导入任何内容，也没有任何改动；原因见下方问题列表。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/import_dialog.py" line="738" />
        <source>Could not import: %1</source>
        <translation>无法导入：%1</translation>
    </message>
</context>
</TS>