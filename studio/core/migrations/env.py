"""Alembic environment: migrations run programmatically on the app's own connection."""

from alembic import context

from studio.core.models import FTS_TABLES, Base

config = context.config
target_metadata = Base.metadata


def include_name(name, type_, parent_names):
    """Keep the hand-made FTS5 tables (and their shadow tables) out of autogenerate."""
    if type_ == "table":
        return not any(name == t or name.startswith(t + "_") for t in FTS_TABLES)
    return True


def run_migrations() -> None:
    connection = config.attributes["connection"]
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        include_name=include_name,
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations()
