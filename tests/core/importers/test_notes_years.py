"""Interview dates written without a year: which year the import gives them, and says it gave."""

from __future__ import annotations

import json
import os
import textwrap
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from studio import app
from studio.core.frontmatter import split_front_matter
from studio.core.importers.interview_tables import YearBasis, place_year
from studio.core.importers.notes_import import apply_import, plan_import
from studio.core.interviews import list_interviews

SHANGHAI = ZoneInfo("Asia/Shanghai")

# Eleven yearless rows in the shape of a real interview log: the company after the date in
# the date cell, full-width colons, rows without a time, empty results, blank rows after.
LOG = textwrap.dedent("""\
    ## 面试记录

    | Date                          | 记录                                   | 感受               | 结果       |
    | ----------------------------- | -------------------------------------- | ------------------ | ---------- |
    | 5/12 20：00 星河科技 推理引擎 | 问了 CUDA graph，手写 reduce 没写完    | 有点紧张           | 无后续     |
    | 5/20 11：00 远山智能 内推     | 电话面试，聊项目和实验室经历           | 面试官很友好       | 性格测试挂 |
    | 5/27 19：00 北辰半导体        | 一直问为什么想做系统方向               | 像答辩             | 挂         |
    | 6/2 14：00 青禾数据           | 纯聊简历                               | 没什么印象         |            |
    | 6/4 9：50 某研究所            | 自我介绍+项目，问有没有微调经历        | 方向不太匹配       |            |
    | 6/4 19：00 云帆科技 训推平台  | 项目深挖+现场写 kernel+结构体对齐      | 很专业，估计没二面 |            |
    | 6/6 明湖多模态                | 英文自我介绍+多模态问题                | 岗位不匹配         |            |
    | 6/9 长风科技 后端 上海        | 写 softmax + 推理框架 + 编译器         | 答得不好           |            |
    | 6/13 18:00 白鹭 训推优化      | MLA 解释 + layernorm kernel + 算法题   | 很轻松             |            |
    | 6/16 10：10 某国企 夏令营     | 微调和 RAG 的区别 + 项目               | 体验很差           |            |
    | 6/20 15：00 星河科技 搜索     | L2 cache 命中率 + 树的后序遍历         | 问得很细           |            |
    |                               |                                        |                    |            |
    |                               |                                        |                    |            |
""")


def _note(tmp_path, name: str, text: str, mtime: datetime | None = None):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    if mtime is not None:
        os.utime(path, (mtime.timestamp(), mtime.timestamp()))
    return path


def _local_dates(col) -> dict[str, date]:
    out = {}
    for iv in list_interviews(col):
        out[iv.company] = iv.starts_at.replace(tzinfo=ZoneInfo("UTC")).astimezone(SHANGHAI).date()
    return out


def test_front_matter_date_decides_and_a_january_row_of_a_december_note_is_next_year(collection, tmp_path):
    text = textwrap.dedent("""\
        ---
        title: 年底面试
        date: 2025-12-28 21:00:00
        ---
        | 日期 | 公司 | 结果 |
        | --- | --- | --- |
        | 12/20 14:00 | 星河科技 | 二面 |
        | 12/30 | 远山智能 | 等结果 |
        | 1/3 10:00 | 北辰半导体 | |
        | 3/15 | 云帆科技 | |
    """)
    # The file's own time says otherwise; the front matter date wins.
    path = _note(tmp_path, "year-end.md", text, mtime=datetime(2023, 1, 1, tzinfo=SHANGHAI))
    plan = plan_import([path])
    summary = apply_import(collection, plan)
    assert summary.interviews == 4
    assert _local_dates(collection) == {"星河科技": date(2025, 12, 20), "远山智能": date(2025, 12, 30),
                                        "北辰半导体": date(2026, 1, 3), "云帆科技": date(2026, 3, 15)}
    (assumed,) = summary.assumptions
    assert assumed.basis.kind == "front_matter" and assumed.basis.reference == date(2025, 12, 28)
    assert "2025-2026" in assumed.describe() and "front matter date 2025-12-28" in assumed.describe()


def test_file_time_decides_without_front_matter(collection, tmp_path):
    text = "| Date | Company |\n|---|---|\n| 5/19 20：00 | Orbit AI |\n| 9/1 | Lumen |\n| 10/8 | Quanta |\n"
    path = _note(tmp_path, "log.md", text, mtime=datetime(2024, 6, 23, 12, tzinfo=SHANGHAI))
    summary = apply_import(collection, plan_import([path]))
    # 9 months before to 3 months after 2024-06-23: October 8 is last year's, September 1 this one's.
    assert _local_dates(collection) == {"Orbit AI": date(2024, 5, 19), "Lumen": date(2024, 9, 1),
                                        "Quanta": date(2023, 10, 8)}
    (assumed,) = summary.assumptions
    assert assumed.basis.kind == "file_time" and "2023-2024" in assumed.describe()


@pytest.mark.parametrize("stamp", [datetime(1980, 1, 1, tzinfo=SHANGHAI), datetime(2099, 1, 1, tzinfo=SHANGHAI)])
def test_no_date_and_no_believable_file_time_take_the_most_recent_past_occurrence(collection, tmp_path, stamp):
    text = "| Date | Company |\n|---|---|\n| 2/27 | Orbit AI |\n| 3/1 9:00 | Lumen |\n| 3/2 | Quanta |\n"
    path = _note(tmp_path, "unzipped.md", text, mtime=stamp)
    summary = apply_import(collection, plan_import([path], today=date(2025, 3, 1)))
    assert _local_dates(collection) == {"Orbit AI": date(2025, 2, 27), "Lumen": date(2025, 3, 1),
                                        "Quanta": date(2024, 3, 2)}
    (assumed,) = summary.assumptions
    assert assumed.basis.kind == "today" and assumed.basis.rejected_file_time == stamp.date()
    assert "most recent past occurrence" in assumed.describe() and "not believable" in assumed.describe()


def test_year_option_overrides_every_assumption(collection, tmp_path):
    text = "---\ndate: 2025-12-28\n---\n| Date | Company |\n|---|---|\n| 1/3 | Orbit AI |\n| 2024-05-01 | Lumen |\n"
    path = _note(tmp_path, "log.md", text)
    summary = apply_import(collection, plan_import([path]), year=2023)
    assert _local_dates(collection) == {"Orbit AI": date(2023, 1, 3), "Lumen": date(2024, 5, 1)}
    (assumed,) = summary.assumptions
    assert assumed.rows == 1 and assumed.basis is None and "the year given" in assumed.describe()
    assert summary.to_json()["assumptions"][0]["basis"] == "year_given"


@pytest.mark.parametrize("kind, reference, month_day, year", [
    ("front_matter", date(2025, 12, 28), (1, 3), 2026),
    ("front_matter", date(2026, 1, 5), (12, 28), 2025),  # a January note about late December
    ("front_matter", date(2025, 12, 28), (9, 28), 2025),  # three months before: still this year
    ("front_matter", date(2025, 12, 28), (9, 27), 2026),
    ("updated", date(2025, 1, 10), (12, 30), 2024),
    ("file_time", date(2025, 1, 10), (4, 9), 2025),  # upcoming, within three months
    ("file_time", date(2025, 1, 10), (4, 10), 2024),
    ("today", date(2025, 3, 1), (3, 1), 2025),
    ("today", date(2025, 3, 1), (2, 29), 2024),  # the latest 29 February before today
])
def test_place_year_windows(kind, reference, month_day, year):
    assert place_year(*month_day, YearBasis(kind, reference)) == year


def test_front_matter_dates_in_the_shapes_people_write():
    for written, expected in (("2025-12-28 10:00:00", date(2025, 12, 28)), ("'2025/12/28'", date(2025, 12, 28)),
                              ("2025年12月8日", date(2025, 12, 8)), ("sometime", None), ("'2025-02-30'", None)):
        front, _ = split_front_matter(f"---\ndate: {written}\nupdated: 2026-01-26 15:16:36\n---\nbody\n")
        assert front.created_date == expected, written
        assert front.updated_date == date(2026, 1, 26)
    front, _ = split_front_matter("---\ndateModified: 2024-03-05\n---\n")
    assert (front.created_date, front.updated_date) == (None, date(2024, 3, 5))


def test_cli_imports_eleven_of_eleven_yearless_rows(tmp_path, capsys):
    path = _note(tmp_path, "interview-log.md", LOG, mtime=datetime(2025, 6, 25, 22, tzinfo=SHANGHAI))
    assert app.main(["import", "notes", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["interviews"] == 11
    assert not [p for p in out["problems"] if "has no year" in p]
    (assumed,) = out["assumptions"]
    assert (assumed["rows"], assumed["years"], assumed["basis"]) == (11, [2025], "file_time")
    assert assumed["reference"] == "2025-06-25" and assumed["file"] == str(path)
    assert app.main(["import", "notes", str(path), "--year", "2024"]) == 0
    text = capsys.readouterr().out
    assert "interviews: 0" in text  # the same rows again: updated in place
    assert f"assumed: {path}: 11 interview date(s) without a year read as 2024, the year given" in text
