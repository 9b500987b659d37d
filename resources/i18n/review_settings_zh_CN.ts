<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>ReviewSettingsDialog</name>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="52" />
        <source>Review settings</source>
        <translation>复习设置</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="58" />
        <source>Chinese and English</source>
        <translation>中英双语</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="58" />
        <source>Chinese</source>
        <translation>中文</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="59" />
        <source>English</source>
        <translation>英文</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="67" />
        <source>New cards per day</source>
        <translation>每日新卡数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="68" />
        <source>Reviews per day</source>
        <translation>每日复习数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="69" />
        <source>Desired retention</source>
        <translation>目标保留率</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="70" />
        <source>Card language</source>
        <translation>卡片语言</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="71" />
        <source>Mock interview minutes per question</source>
        <translation>模拟面试每题分钟数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="98" />
        <source>FSRS parameters</source>
        <translation>FSRS 参数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="101" />
        <location filename="../../studio/ui/review_settings.py" line="156" />
        <source>Optimise</source>
        <translation>优化</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="103" />
        <source>Fit the parameters of the memory model to your own review log (fsrs's optimizer, in a separate process). Nothing changes until you choose to use the result and press OK.</source>
        <translation>根据你自己的复习记录拟合记忆模型的参数（使用 fsrs 的优化器，在单独的进程中运行）。在你选择采用结果并点击“确定”之前，不会有任何改动。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="106" />
        <source>Use the default parameters</source>
        <translation>使用默认参数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="114" />
        <source>Use these parameters</source>
        <translation>使用这些参数</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="141" />
        <source>On OK: the fitted parameters (%1 reviews).</source>
        <translation>点击“确定”后：使用拟合的参数（%1 次复习）。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="143" />
        <source>On OK: the default parameters.</source>
        <translation>点击“确定”后：使用默认参数。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="146" />
        <source>In use: parameters fitted to %1 reviews on %2.</source>
        <translation>当前使用：于 %2 根据 %1 次复习拟合的参数。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="149" />
        <source>In use: the default parameters.</source>
        <translation>当前使用：默认参数。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="152" />
        <source>Optimise needs at least %1 reviews: you have %2, %3 more to go.</source>
        <translation>优化至少需要 %1 次复习：你已有 %2 次，还差 %3 次。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="156" />
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="180" />
        <source>Fitting the parameters to %1 reviews…</source>
        <translation>正在根据 %1 次复习拟合参数…</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="192" />
        <source>Fitting took longer than %1 s and was stopped.</source>
        <translation>拟合超过 %1 秒，已停止。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="197" />
        <source>The optimiser could not be started: %1</source>
        <translation>无法启动优化器：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="207" />
        <source>Stopped; nothing changed.</source>
        <translation>已停止；没有任何改动。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="214" />
        <source>Could not optimise: %1</source>
        <translation>无法优化：%1</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="218" />
        <source>Fitted to %1 reviews. Log loss: %2 now, %3 fitted. RMSE: %4 now, %5 fitted.</source>
        <translation>已根据 %1 次复习完成拟合。对数损失：当前 %2，拟合后 %3。RMSE：当前 %4，拟合后 %5。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="224" />
        <source>The fitted parameters do not predict your reviews better than those in use: keeping those is advised.</source>
        <translation>拟合出的参数对你复习结果的预测并不比当前参数更好：建议保留当前参数。</translation>
    </message>
    <message>
        <location filename="../../studio/ui/review_settings.py" line="227" />
        <source>The log loss is lower with the fitted parameters but the RMSE is higher: they predict your answers better overall, with less well calibrated probabilities.</source>
        <translation>使用拟合参数时对数损失更低，但 RMSE 更高：它们整体上更能预测你的作答，但给出的概率校准得较差。</translation>
    </message>
</context>
</TS>