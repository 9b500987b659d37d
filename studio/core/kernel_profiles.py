"""Nsight Compute profiles kept with the drill attempt or bench run of the point.

A profile (studio.drills.profiler.Profile.to_dict) is stored whole; the columns beside it
are what a list filters on: the drill or kernel, the attempt or bench run, the point.
`previous` finds the profile of the same point taken before, so the profile view can show
what a fix changed.
"""

from __future__ import annotations

import json

from sqlalchemy import select

from studio.core.collection import Collection, utcnow
from studio.core.models import KernelProfile


def _size(size: list[int]) -> str:
    return "x".join(str(int(v)) for v in size)


def record_profile(col: Collection, profile: dict, source: str, code: str = "", attempt_id: int | None = None,
                   bench_run_id: int | None = None) -> int:
    """Store a profile (Profile.to_dict()); returns its id."""
    with col.db.session() as s, s.begin():
        row = KernelProfile(created_at=utcnow(), source=source, subject=str(profile.get("subject", "")),
                            attempt_id=attempt_id, bench_run_id=bench_run_id, size=_size(profile.get("size") or []),
                            dtype=str(profile.get("dtype", "")), status=str(profile.get("status", "failed")),
                            device=str(profile.get("device") or ""), code=code,
                            profile_json=json.dumps(profile, allow_nan=False, default=str))
        s.add(row)
        s.flush()
        return row.id


def list_profiles(col: Collection, subject: str | None = None, size: list[int] | None = None,
                  dtype: str | None = None) -> list[KernelProfile]:
    """Profiles newest first, of one drill/kernel (and point) if given."""
    query = select(KernelProfile).order_by(KernelProfile.created_at.desc(), KernelProfile.id.desc())
    if subject is not None:
        query = query.where(KernelProfile.subject == subject)
    if size is not None:
        query = query.where(KernelProfile.size == _size(size))
    if dtype is not None:
        query = query.where(KernelProfile.dtype == dtype)
    with col.db.session() as s:
        return list(s.scalars(query))


def get_profile(col: Collection, profile_id: int) -> KernelProfile | None:
    with col.db.session() as s:
        return s.get(KernelProfile, profile_id)


def previous(col: Collection, row: KernelProfile) -> KernelProfile | None:
    """The last successful profile of the same point taken before `row`."""
    with col.db.session() as s:
        return s.scalars(select(KernelProfile)
                         .where(KernelProfile.subject == row.subject, KernelProfile.size == row.size,
                                KernelProfile.dtype == row.dtype, KernelProfile.status == "ok",
                                KernelProfile.id < row.id)
                         .order_by(KernelProfile.id.desc()).limit(1)).first()


def profile_data(row: KernelProfile) -> dict:
    try:
        data = json.loads(row.profile_json)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
