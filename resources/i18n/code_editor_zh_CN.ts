<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CodeEditor</name>
    <message>
        <location filename="../../studio/ui/code_editor.py" line="137"/>
        <source>Find (Enter: next, Shift+Enter: previous, Esc: close)</source>
        <translation>查找（Enter 下一个，Shift+Enter 上一个，Esc 关闭）</translation>
    </message>
</context>
</TS>
