"""The interview log core: validation, typed dates, charts, export, cards from questions."""

from __future__ import annotations

import csv
import io
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from studio.core import interviews as iv
from studio.core.collection import utcnow

SH = ZoneInfo("Asia/Shanghai")


def _draft(**kw):
    base = dict(starts_at=datetime(2025, 5, 19, 20, 0, tzinfo=SH), company="Acme", round="1st technical")
    base.update(kw)
    return iv.InterviewDraft(**base)


@pytest.mark.parametrize("text, year, expected", [
    ("5/19 20：00", 2025, datetime(2025, 5, 19, 20, 0, tzinfo=SH)),
    ("2025-05-19 20:00", None, datetime(2025, 5, 19, 20, 0, tzinfo=SH)),
    ("2025年5月19日 20点", None, datetime(2025, 5, 19, 20, 0, tzinfo=SH)),
    ("５／１９　２０：３０", 2024, datetime(2024, 5, 19, 20, 30, tzinfo=SH)),
    ("2025/5/19", None, datetime(2025, 5, 19, 0, 0, tzinfo=SH)),
])
def test_parse_when_reads_what_people_type(text, year, expected):
    assert iv.parse_when(text, SH, year) == expected


def test_parse_when_asks_for_a_missing_year_and_rejects_nonsense():
    with pytest.raises(iv.DateNeedsYear):
        iv.parse_when("5/19 20:00", SH)
    with pytest.raises(ValueError, match="not a real date"):
        iv.parse_when("2/30 10:00", SH, 2025)
    with pytest.raises(ValueError, match="cannot read"):
        iv.parse_when("next tuesday", SH, 2025)


def test_invalid_form_saves_nothing(collection):
    with pytest.raises(iv.InterviewInvalid) as info:
        iv.save_interview(collection, _draft(company="  ", starts_at=None, result="ghosted"))
    assert set(info.value.errors) == {"company", "starts_at", "result"}
    with pytest.raises(iv.InterviewInvalid) as info:
        iv.save_interview(collection, _draft(next_step_at=datetime(2025, 5, 1, tzinfo=SH)))
    assert "next_step_at" in info.value.errors
    assert iv.list_interviews(collection) == []


def test_large_notes_are_kept_and_huge_ones_refused(collection):
    big = "学" * 100_000
    interview_id = iv.save_interview(collection, _draft(notes_md=big))
    assert iv.list_interviews(collection)[0].notes_md == big
    with pytest.raises(iv.InterviewInvalid, match="limit"):
        iv.save_interview(collection, _draft(notes_md="x" * (iv.MAX_NOTES_CHARS + 1)), interview_id)
    assert iv.list_interviews(collection)[0].notes_md == big


def test_time_zone_is_kept(collection):
    iv.save_interview(collection, _draft())
    row = iv.list_interviews(collection)[0]
    assert row.tz == "Asia/Shanghai"
    assert row.starts_at == datetime(2025, 5, 19, 12, 0)  # stored in UTC


def test_delete_and_undo(collection):
    interview_id = iv.save_interview(collection, _draft())
    iv.delete_interview(collection, interview_id)
    assert iv.list_interviews(collection) == []
    iv.restore_interview(collection, interview_id)
    assert [r.id for r in iv.list_interviews(collection)] == [interview_id]


def test_charts_on_a_constructed_log(collection):
    q = iv.QuestionDraft
    iv.save_interview(collection, _draft(result="rejected", questions=[q("softmax", "kernels.triton-model", 2),
                                                                       q("ring", "comm.nccl", 4)]))
    iv.save_interview(collection, _draft(starts_at=datetime(2025, 5, 21, 10, tzinfo=SH), result="passed",
                                         questions=[q("softmax again", "kernels.triton-model", 4)]))
    iv.save_interview(collection, _draft(starts_at=datetime(2025, 6, 3, 10, tzinfo=SH), result="offer"))
    rows = iv.list_interviews(collection)
    assert iv.topics_asked(rows) == [("kernels.triton-model", 2, 3.0), ("comm.nccl", 1, 4.0)]
    funnel = iv.funnel(rows)
    assert (funnel["rejected"], funnel["passed"], funnel["offer"], funnel["scheduled"]) == (1, 1, 1, 0)
    weeks = iv.interviews_per_week(rows)
    assert list(weeks.values()) == [2, 0, 1]
    assert iv.filter_interviews(rows, status="offer")[0].result == "offer"
    assert len(iv.filter_interviews(rows, text="SOFTMAX")) == 2


def test_upcoming_includes_next_steps(collection):
    now = utcnow()
    soon = (now + timedelta(days=2)).replace(tzinfo=timezone.utc)
    later = (now + timedelta(days=20)).replace(tzinfo=timezone.utc)
    iv.save_interview(collection, _draft(starts_at=soon, company="Soon"))
    iv.save_interview(collection, _draft(starts_at=later, company="Later"))
    iv.save_interview(collection, _draft(starts_at=datetime(2025, 1, 1, tzinfo=SH), company="Past",
                                         next_step="HR call", next_step_at=soon + timedelta(hours=3)))
    got = [(kind, row.company) for _when, kind, row in iv.upcoming(collection, now=now)]
    assert got == [("interview", "Soon"), ("next_step", "Past")]


def test_export_matches_the_table(collection):
    iv.save_interview(collection, _draft(company="A|B, Inc", questions=[iv.QuestionDraft("Q1"), iv.QuestionDraft("Q2")]))
    rows = iv.list_interviews(collection)
    parsed = list(csv.reader(io.StringIO(iv.export_csv(rows))))
    assert parsed[0] == list(iv.EXPORT_COLUMNS)
    assert parsed[1][:2] == ["2025-05-19 20:00", "A|B, Inc"] and parsed[1][-1] == "Q1; Q2"
    md = iv.export_markdown(rows).splitlines()
    assert md[2].startswith("| 2025-05-19 20:00 | A\\|B, Inc |")


def test_card_from_question_round_trip(collection):
    iv.save_interview(collection, _draft(questions=[iv.QuestionDraft("手写 softmax 的 Triton kernel", "kernels.triton-model")]))
    question = iv.list_interviews(collection)[0].questions[0]
    card_id = iv.card_from_question(collection, question.id)
    assert iv.card_from_question(collection, question.id) == card_id  # no duplicate
    from studio.core.review import ReviewQueue

    card = ReviewQueue(collection).get(card_id)
    assert card.q_zh == "手写 softmax 的 Triton kernel" and card.node_id == "kernels.triton-model"
    assert "interview" in card.tags.split()
    assert iv.asked_in(collection, card_id) == [{"interview_id": 1, "company": "Acme", "round": "1st technical",
                                                 "date": "2025-05-19"}]


def test_intro_drafts_and_speaking_time(collection):
    intro_id = iv.save_intro(collection, "en", "v1", "word " * 150)
    iv.save_intro(collection, "zh", "版本一", "我" * 250)
    assert len(iv.list_intros(collection)) == 2
    assert iv.speaking_seconds("word " * 150, "en") == 60
    assert iv.speaking_seconds("我" * 250, "zh") == 60
    iv.save_intro(collection, "en", "v1 edited", "hello", intro_id)
    assert {i.title for i in iv.list_intros(collection)} == {"v1 edited", "版本一"}
