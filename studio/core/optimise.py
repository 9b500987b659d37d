"""FSRS parameters fitted to the user's own review log (Review settings > Optimise).

The fitting is the fsrs package's Optimizer, which needs torch (and pandas): it runs in a
child process (`python -m studio.core.optimise --db PATH`), so the GUI process never imports
either. The child reads the log from the database read-only, fits, and prints one JSON
object: the parameters found, and the log loss and RMSE of the current parameters and of
the fitted ones on the same log. Nothing is stored until the user confirms
(`apply_parameters`); desired retention stays a separate setting.

RMSE is the calibration error over bins of predicted recall (as FSRS reports it): reviews
are grouped by predicted retrievability in 20 bins, and the predicted and actual recall
rates of each bin are compared, weighted by the bin's size.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from dataclasses import dataclass
from datetime import timezone
from pathlib import Path

from fsrs import Card as FsrsCard
from fsrs import Rating, ReviewLog, Scheduler
from sqlalchemy import func, select

from studio.core.collection import Collection, utcnow
from studio.core.models import ReviewLog as LogRow
from studio.core.models import ReviewUndo
from studio.core.review import PARAMETERS_SETTING, fsrs_parameters

MIN_REVIEWS = 400


@dataclass
class Fit:
    parameters: list[float]
    reviews: int
    before: dict[str, float]  # log_loss, rmse with the parameters in use
    after: dict[str, float]  # the same with the fitted parameters

    def to_json(self) -> dict:
        return {"parameters": self.parameters, "reviews": self.reviews, "before": self.before, "after": self.after}


def review_count(col: Collection) -> int:
    with col.db.session() as s:
        return int(s.scalar(select(func.count(LogRow.id)).where(
            LogRow.id.not_in(select(ReviewUndo.review_id)))) or 0)


def review_logs(col: Collection) -> list[ReviewLog]:
    """Every answer not undone, as the fsrs package's ReviewLog, in time order."""
    with col.db.session() as s:
        rows = s.execute(select(LogRow.card_id, LogRow.rating, LogRow.reviewed_at, LogRow.duration_ms)
                         .where(LogRow.id.not_in(select(ReviewUndo.review_id)))
                         .order_by(LogRow.reviewed_at, LogRow.id)).all()
    return [ReviewLog(card_id=c, rating=Rating(r), review_datetime=at.replace(tzinfo=timezone.utc),
                      review_duration=d) for c, r, at, d in rows]


def evaluate(logs: list[ReviewLog], parameters) -> dict[str, float]:
    """Log loss and binned RMSE of the recall predicted before each review (no torch needed).

    Only reviews on a later day than the card's previous one count, as in FSRS's own metrics.
    """
    scheduler = Scheduler(parameters=tuple(parameters), enable_fuzzing=False)
    cards: dict[int, FsrsCard] = {}
    points: list[tuple[float, int]] = []
    for log in sorted(logs, key=lambda x: x.review_datetime):
        card = cards.get(log.card_id)
        if card is None:
            card = FsrsCard(card_id=log.card_id, due=log.review_datetime)
        elif card.last_review is not None and (log.review_datetime - card.last_review).days > 0:
            r = scheduler.get_card_retrievability(card, log.review_datetime)
            points.append((min(max(r, 1e-6), 1 - 1e-6), 0 if log.rating == Rating.Again else 1))
        cards[log.card_id], _ = scheduler.review_card(card, log.rating, log.review_datetime)
    if not points:
        return {"log_loss": float("nan"), "rmse": float("nan"), "n": 0}
    loss = -sum(y * math.log(p) + (1 - y) * math.log(1 - p) for p, y in points) / len(points)
    bins: dict[int, list[tuple[float, int]]] = {}
    for p, y in points:
        bins.setdefault(min(19, int(p * 20)), []).append((p, y))
    sq = sum(len(b) * (sum(p for p, _ in b) / len(b) - sum(y for _, y in b) / len(b)) ** 2 for b in bins.values())
    return {"log_loss": round(loss, 5), "rmse": round(math.sqrt(sq / len(points)), 5), "n": len(points)}


def fit(logs: list[ReviewLog], current) -> Fit:
    """Fit parameters to `logs` with fsrs's Optimizer (imports torch: call in a child process)."""
    from fsrs.optimizer import Optimizer

    fitted = [float(w) for w in Optimizer(logs).compute_optimal_parameters()]
    return Fit(fitted, len(logs), evaluate(logs, current), evaluate(logs, fitted))


class OptimiseFailed(Exception):
    """The child process could not fit; the message says why in one sentence."""


def optimiser_command(db_path: Path) -> list[str]:
    """The child process that fits (prints one JSON object on its last line of output)."""
    return [sys.executable, "-m", "studio.core.optimise", "--db", str(db_path)]


def parse_output(returncode: int, stdout: str, stderr: str) -> Fit:
    """The child's answer as a Fit, or OptimiseFailed with its one-sentence reason."""
    lines = (stdout or "").strip().splitlines()
    try:
        data = json.loads(lines[-1]) if lines else {}
    except ValueError:
        data = {}
    if not isinstance(data, dict):
        data = {}
    if returncode != 0 or "parameters" not in data:
        why = data.get("error") or ((stderr or "").strip().splitlines() or lines or ["no output"])[-1]
        raise OptimiseFailed(f"the optimiser failed: {why}")
    try:
        parameters = [float(w) for w in data["parameters"]]
        before = {k: float(v) for k, v in data["before"].items()}
        after = {k: float(v) for k, v in data["after"].items()}
        return Fit(parameters, int(data["reviews"]), before, after)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise OptimiseFailed(f"the optimiser's answer is incomplete ({type(exc).__name__}: {exc})") from exc


def run_optimiser(db_path: Path, timeout_s: float = 600) -> Fit:
    """Fit in a child process (torch stays out of the caller) and return its result."""
    try:
        proc = subprocess.run(optimiser_command(db_path), capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired as exc:
        raise OptimiseFailed(f"fitting took longer than {timeout_s:.0f} s and was stopped") from exc
    except OSError as exc:
        raise OptimiseFailed(f"cannot start the optimiser: {exc}") from exc
    return parse_output(proc.returncode, proc.stdout, proc.stderr)


def apply_parameters(col: Collection, result: Fit) -> None:
    """Use the fitted parameters from now on (the user confirmed)."""
    Scheduler(parameters=tuple(result.parameters))  # refuses parameters out of fsrs's bounds
    col.set_setting(PARAMETERS_SETTING, {"parameters": list(result.parameters), "reviews": result.reviews,
                                         "before": result.before, "after": result.after,
                                         "fitted_at": utcnow().isoformat(timespec="seconds")})


def reset_parameters(col: Collection) -> None:
    """Back to the fsrs package's default parameters."""
    col.set_setting(PARAMETERS_SETTING, None)


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="fit FSRS parameters to a collection's review log")
    parser.add_argument("--db", required=True)
    args = parser.parse_args(argv)
    from studio.core.db import open_database

    try:
        col = Collection(open_database(Path(args.db), backups=None, read_only=True))
    except Exception as exc:  # one sentence back to the parent, whatever went wrong
        print(json.dumps({"error": f"cannot open the database: {exc}"}))
        return 2
    try:
        logs = review_logs(col)
        if len(logs) < MIN_REVIEWS:
            print(json.dumps({"error": f"{len(logs)} reviews; at least {MIN_REVIEWS} are needed"}))
            return 2
        current = fsrs_parameters(col) or Scheduler().parameters
        print(json.dumps(fit(logs, current).to_json()))
    except Exception as exc:
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
        return 2
    finally:
        col.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())

__all__ = ["MIN_REVIEWS", "Fit", "OptimiseFailed", "review_count", "review_logs", "evaluate", "fit",
           "optimiser_command", "parse_output", "run_optimiser", "apply_parameters", "reset_parameters"]
