<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>RenderNotice</name>
    <message>
        <location filename="../../studio/ui/render_notices.py" line="20" />
        <source>many unclosed or deeply nested “[” brackets</source>
        <translation>大量未闭合或深度嵌套的“[”括号</translation>
    </message>
    <message>
        <location filename="../../studio/ui/render_notices.py" line="21" />
        <source>many unclosed “(” after links</source>
        <translation>链接后大量未闭合的“(”</translation>
    </message>
    <message>
        <location filename="../../studio/ui/render_notices.py" line="22" />
        <source>many unclosed “&lt;” tags</source>
        <translation>大量未闭合的“&lt;”标签</translation>
    </message>
    <message>
        <location filename="../../studio/ui/render_notices.py" line="24" />
        <source>many headings or rules with no blank line between them</source>
        <translation>大量之间没有空行的标题或分隔线</translation>
    </message>
    <message>
        <location filename="../../studio/ui/render_notices.py" line="25" />
        <source>many unclosed code fences</source>
        <translation>大量未闭合的代码围栏</translation>
    </message>
    <message>
        <location filename="../../studio/ui/render_notices.py" line="34" />
        <source>This note is %1, over the %2 limit for formatted display; shown as plain text.</source>
        <translation>此笔记大小为 %1，超过了格式化显示的 %2 上限；以纯文本显示。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/render_notices.py" line="35" />
        <source> bytes</source>
        <translation> 字节</translation>
    </message>
    <message>
        <location filename="../../studio/ui/render_notices.py" line="38" />
        <source>This note is nested %1 levels deep at line %2, over the limit of %3 for formatted display; shown as plain text.</source>
        <translation>此笔记在第 %2 行嵌套了 %1 层，超过了格式化显示的 %3 层上限；以纯文本显示。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/render_notices.py" line="41" />
        <source>This note is nested %1 levels deep, over the limit of %2 for formatted display; shown as plain text.</source>
        <translation>此笔记嵌套了 %1 层，超过了格式化显示的 %2 层上限；以纯文本显示。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/render_notices.py" line="43" />
        <source>This note has tables nested %1 deep, over the limit of %2 for formatted display; shown as plain text.</source>
        <translation>此笔记的表格嵌套了 %1 层，超过了格式化显示的 %2 层上限；以纯文本显示。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/render_notices.py" line="45" />
        <source>This note has %1 around line %2, which would take too long to format; shown as plain text.</source>
        <translation>此笔记在第 %2 行附近有%1，格式化会耗时过长；以纯文本显示。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/render_notices.py" line="48" />
        <source>This note is nested too deeply to format; shown as plain text.</source>
        <translation>此笔记嵌套过深，无法格式化；以纯文本显示。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/render_notices.py" line="51" />
        <source> (its first %1 characters).</source>
        <translation>（仅显示前 %1 个字符）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/render_notices.py" line="54" />
        <source>This limit is fixed and cannot be raised; the file itself is not changed. To see the note formatted, split the note into smaller notes.</source>
        <translation>此上限是固定的，无法提高；文件本身不会被修改。如需格式化显示，请把笔记拆分成几篇较小的笔记。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/render_notices.py" line="56" />
        <source>This limit is fixed and cannot be raised; the file itself is not changed. To see the note formatted, close or remove the markup named above.</source>
        <translation>此上限是固定的，无法提高；文件本身不会被修改。如需格式化显示，请闭合或删除上面提到的标记。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/render_notices.py" line="58" />
        <source>This limit is fixed and cannot be raised; the file itself is not changed. To see the note formatted, reduce how deeply it nests.</source>
        <translation>此上限是固定的，无法提高；文件本身不会被修改。如需格式化显示，请减少笔记的嵌套层数。</translation>
    </message>
</context>
</TS>