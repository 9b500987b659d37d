<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>DrillDeviceDialog</name>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="34" />
        <source>Drill device…</source>
        <translation>练习设备…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="52" />
        <source>%1, not reachable</source>
        <translation>%1，无法连接</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="78" />
        <source>Drill device</source>
        <translation>练习设备</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="80" />
        <source>This machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="81" />
        <source>An SSH host (e.g. a GPU box at work, in a lab or in the cloud)</source>
        <translation>SSH 主机（例如公司、实验室或云上的 GPU 机器）</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="86" />
        <source>empty: the app's own Python</source>
        <translation>留空：使用本应用自己的 Python</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="88" />
        <source>an alias from ~/.ssh/config, or user@host[:port]</source>
        <translation>~/.ssh/config 中的别名，或 user@host[:port]</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="90" />
        <source>python3, or a full path such as ~/miniconda3/envs/gpu/bin/python</source>
        <translation>python3，或完整路径，例如 ~/miniconda3/envs/gpu/bin/python</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="93" />
        <source>Python for drills</source>
        <translation>练习用的 Python</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="96" />
        <source>SSH host</source>
        <translation>SSH 主机</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="97" />
        <location filename="../../studio/ui/drill_device_dialog.py" line="168" />
        <source>Python there</source>
        <translation>远程 Python</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="98" />
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="101" />
        <source>Uses your system's ssh with your key or ssh-agent; no password is asked for or stored. `ssh HOST true` must work in a terminal without a prompt. The drill harness is copied once to ~/.cache/ml-infra-studio/remote on the host.</source>
        <translation>使用系统自带的 ssh 与你的密钥或 ssh-agent 登录；不会询问也不会保存密码。在终端里执行 `ssh HOST true` 必须无需任何提示即可成功。练习评测程序只会复制一次，放在该主机的 ~/.cache/ml-infra-studio/remote 中。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="107" />
        <source>Test connection checks SSH, the Python there, torch, triton, the GPU and nvcc, and lists what is missing.</source>
        <translation>“测试连接”会检查 SSH、远程 Python、torch、triton、GPU 和 nvcc，并列出缺少的部分。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="142" />
        <source>Name the SSH host: an alias from ~/.ssh/config or user@host[:port].</source>
        <translation>请填写 SSH 主机：~/.ssh/config 中的别名，或 user@host[:port]。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="143" />
        <source>“%1” is not a host name, an alias or user@host[:port].</source>
        <translation>“%1”不是主机名、别名或 user@host[:port]。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="152" />
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="168" />
        <source>SSH</source>
        <translation>SSH</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="168" />
        <source>Drill harness copy</source>
        <translation>评测程序副本</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="169" />
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="171" />
        <source>Check the host name and that `ssh HOST true` works in a terminal without a password prompt (add your key with ssh-copy-id, or load it into ssh-agent).</source>
        <translation>请检查主机名，并确认在终端里执行 `ssh HOST true` 不会提示输入密码（用 ssh-copy-id 添加你的密钥，或把密钥加载到 ssh-agent）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="173" />
        <source>Set “Python there” to an interpreter that exists on the host, by its full path (Python 3.9 or newer).</source>
        <translation>请把“远程 Python”设为该主机上存在的解释器的完整路径（Python 3.9 或更新版本）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="175" />
        <source>Free some disk space on the host, or check that its ~/.cache is writable.</source>
        <translation>请在该主机上释放一些磁盘空间，或检查其 ~/.cache 是否可写。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="176" />
        <source>Install torch into that Python (a CUDA build for a GPU).</source>
        <translation>请在该 Python 中安装 torch（有 GPU 时安装 CUDA 版本）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="177" />
        <source>Install triton into that Python (it comes with CUDA builds of torch on Linux).</source>
        <translation>请在该 Python 中安装 triton（Linux 上 torch 的 CUDA 版本自带）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="178" />
        <source>Without a GPU, drills run there under Triton's interpreter: correctness only, no timing.</source>
        <translation>没有 GPU 时，练习会在那里用 Triton 解释器运行：只检查正确性，不计时。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="179" />
        <source>CUDA C++ drills need nvcc: install the CUDA toolkit or set CUDA_HOME.</source>
        <translation>CUDA C++ 练习需要 nvcc：请安装 CUDA 工具包或设置 CUDA_HOME。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="184" />
        <source>found</source>
        <translation>已找到</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="184" />
        <source>missing</source>
        <translation>缺少</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="191" />
        <source>%1 is ready for drills.</source>
        <translation>%1 已可以运行练习。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="193" />
        <source>Drills run on %1, without what is marked missing.</source>
        <translation>练习可以在 %1 上运行，但不含标为缺少的部分。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/drill_device_dialog.py" line="195" />
        <source>Drills cannot run on %1 yet: see what is missing.</source>
        <translation>练习暂时无法在 %1 上运行：请查看缺少的部分。</translation>
    </message>
</context>
</TS>